import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  areValidWeights,
  averageOf,
  checkGradeKey,
  classAverageOf,
  describeGradeKey,
  gradeFor,
  rankByAverage,
  roundToTenth,
  weightedTotal,
} from './term-reports.grading.js';

/** The key of the example: A 75–100, B 65–74.9, C 55–64.9, D 50–54.9, E 0–49.9. */
const KEY = [
  { grade: 'C', min_total: 55 },
  { grade: 'A', min_total: 75 },
  { grade: 'E', min_total: 0 },
  { grade: 'B', min_total: 65 },
  { grade: 'D', min_total: 50 },
];

describe('roundToTenth', () => {
  it('rounds half away from zero without floating-point surprises', () => {
    expect(roundToTenth(74.95)).toBe(75);
    expect(roundToTenth(74.94)).toBe(74.9);
    expect(roundToTenth(0.4 * 67 + 0.6 * 82)).toBe(76);
    expect(roundToTenth(1.005)).toBe(1);
    expect(roundToTenth(0.05)).toBe(0.1);
    expect(roundToTenth(-0.05)).toBe(-0.1);
    expect(Object.is(roundToTenth(-0.01), 0)).toBe(true);
  });
});

describe('weightedTotal', () => {
  const lower = { coursework_weight: 0.4, exam_weight: 0.6 };
  it('weights coursework and exam by the form level and keeps one decimal', () => {
    expect(weightedTotal(80, 70, lower)).toBe(74);
    expect(weightedTotal(81, 72, lower)).toBe(75.6);
    expect(weightedTotal(67, 82, { coursework_weight: 0.3, exam_weight: 0.7 })).toBe(77.5);
  });
  it('has no total without both marks, and the extremes stay in range', () => {
    expect(weightedTotal(null, 70, lower)).toBeNull();
    expect(weightedTotal(70, null, lower)).toBeNull();
    expect(weightedTotal(0, 0, lower)).toBe(0);
    expect(weightedTotal(100, 100, lower)).toBe(100);
  });
  it('always lies between the two marks (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 10 }), (cw, ex, tenths) => {
        const w = { coursework_weight: tenths / 10, exam_weight: roundToTenth(1 - tenths / 10) };
        const total = weightedTotal(cw, ex, w)!;
        return total >= Math.min(cw, ex) - 0.05 && total <= Math.max(cw, ex) + 0.05;
      }),
    );
  });
  it('accepts only weights that add up to 1', () => {
    expect(areValidWeights({ coursework_weight: 0.4, exam_weight: 0.6 })).toBe(true);
    expect(areValidWeights({ coursework_weight: 0.1 + 0.2, exam_weight: 0.7 })).toBe(true);
    expect(areValidWeights({ coursework_weight: 0.5, exam_weight: 0.6 })).toBe(false);
    expect(areValidWeights({ coursework_weight: -0.5, exam_weight: 1.5 })).toBe(false);
  });
});

describe('gradeFor', () => {
  it('gives each band from its lowest total up to just below the next band', () => {
    const cases: [number, string][] = [
      [100, 'A'],
      [75, 'A'],
      [74.9, 'B'],
      [65, 'B'],
      [64.9, 'C'],
      [55, 'C'],
      [54.9, 'D'],
      [50, 'D'],
      [49.9, 'E'],
      [0, 'E'],
    ];
    for (const [total, grade] of cases) expect(gradeFor(total, KEY), `total ${total}`).toBe(grade);
  });
  it('grades the rounded total: 74.95 is 75.0, an A', () => {
    expect(gradeFor(74.95, KEY)).toBe('A');
    expect(gradeFor(74.94, KEY)).toBe('B');
  });
  it('has no grade without a total, or below every band', () => {
    expect(gradeFor(null, KEY)).toBeNull();
    expect(gradeFor(Number.NaN, KEY)).toBeNull();
    expect(gradeFor(40, [{ grade: 'P', min_total: 50 }])).toBeNull();
    expect(gradeFor(40, [])).toBeNull();
  });
  it('never gives a worse grade for a higher total (property)', () => {
    const rank = (g: string | null) => ['E', 'D', 'C', 'B', 'A'].indexOf(g ?? '');
    fc.assert(
      fc.property(fc.double({ min: 0, max: 100, noNaN: true }), fc.double({ min: 0, max: 100, noNaN: true }), (a, b) => {
        const [low, high] = a <= b ? [a, b] : [b, a];
        return rank(gradeFor(low, KEY)) <= rank(gradeFor(high, KEY));
      }),
    );
  });
});

describe('the grade key', () => {
  it('is described as the card prints it', () => {
    expect(describeGradeKey(KEY).map((b) => `${b.grade} ${b.range}`)).toEqual(['A 75–100', 'B 65–74.9', 'C 55–64.9', 'D 50–54.9', 'E 0–49.9']);
  });
  it('is checked for gaps and repeats', () => {
    expect(checkGradeKey(KEY)).toEqual([]);
    expect(checkGradeKey([])).toEqual(['The grade key has no grades.']);
    expect(checkGradeKey([{ grade: 'A', min_total: 50 }]).join(' ')).toMatch(/start at 0/);
    expect(checkGradeKey([...KEY, { grade: 'A', min_total: 90 }]).join(' ')).toMatch(/Grade A appears twice/);
    expect(checkGradeKey([...KEY, { grade: 'F', min_total: 50 }]).join(' ')).toMatch(/Two grades start at 50/);
    expect(checkGradeKey([...KEY, { grade: 'X', min_total: 101 }]).join(' ')).toMatch(/from 0 to 100/);
    expect(checkGradeKey([...KEY, { grade: ' ', min_total: 90 }]).join(' ')).toMatch(/needs a name/);
  });
});

describe('averages', () => {
  it('averages the totals that exist, to one decimal', () => {
    expect(averageOf([70, 80, 90])).toBe(80);
    expect(averageOf([70, null, 75])).toBe(72.5);
    expect(averageOf([66.6, 66.7, 66.7])).toBe(66.7);
    expect(averageOf([])).toBeNull();
    expect(averageOf([null, null])).toBeNull();
    expect(classAverageOf([60.5, 70.25, null])).toBe(65.4);
  });
});

describe('rankByAverage', () => {
  it('ranks best first; equal averages share a place and the next place is skipped (1, 2, 2, 4)', () => {
    const ranked = rankByAverage([
      { key: 'c', average: 70 },
      { key: 'a', average: 90 },
      { key: 'b', average: 70 },
      { key: 'd', average: 60 },
    ]);
    expect(ranked.map((r) => [r.key, r.position])).toEqual([
      ['a', 1],
      ['c', 2],
      ['b', 2],
      ['d', 4],
    ]);
  });
  it('puts students without an average last, without a position', () => {
    const ranked = rankByAverage([
      { key: 'x', average: null },
      { key: 'y', average: 50 },
    ]);
    expect(ranked).toEqual([
      { key: 'y', average: 50, position: 1 },
      { key: 'x', average: null, position: null },
    ]);
    expect(rankByAverage([])).toEqual([]);
  });
  it('gives a position from 1 to the class size to everyone with an average (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.option(fc.integer({ min: 0, max: 1000 }).map((n) => n / 10), { nil: null }), { maxLength: 40 }), (averages) => {
        const ranked = rankByAverage(averages.map((average, key) => ({ key, average })));
        const withAverage = ranked.filter((r) => r.average !== null);
        return (
          ranked.length === averages.length &&
          withAverage.every((r, i) => r.position! >= 1 && r.position! <= i + 1 && (i === 0 || withAverage[i - 1]!.average! >= r.average!)) &&
          (withAverage.length === 0 || withAverage[0]!.position === 1)
        );
      }),
    );
  });
});
