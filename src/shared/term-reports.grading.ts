/**
 * The report card's arithmetic, one definition for the importer, the demo seeder and the card:
 * a subject's total from coursework and exam by the form level's weights, its grade by the
 * school's grade key, a student's average, class positions and the class average.
 * Pure functions; marks are percentages from 0 to 100, totals and averages kept to one decimal.
 */

/** One band of the grade key: a total at or above `min_total` (and below the next band) earns `grade`. */
export interface GradeBand {
  grade: string;
  min_total: number;
  description?: string | null;
}

/** Coursework and exam weights of a form level; they add up to 1. */
export interface AssessmentWeights {
  coursework_weight: number;
  exam_weight: number;
}

/** The highest mark a subject can have. */
export const MAX_MARK = 100;

/**
 * Rounds to one decimal, half away from zero, without binary-fraction surprises
 * (0.4 × 67 + 0.6 × 82 is 76.00000000000001 in floating point, and 74.95 must become 75.0).
 */
export function roundToTenth(value: number): number {
  const tenths = Number((Math.abs(value) * 10).toPrecision(12));
  return (Math.sign(value) * Math.round(tenths)) / 10 || 0;
}

/** True when the weights are usable: each from 0 to 1 and together 1 (to a thousandth). */
export function areValidWeights(weights: AssessmentWeights): boolean {
  const { coursework_weight: c, exam_weight: e } = weights;
  return c >= 0 && e >= 0 && c <= 1 && e <= 1 && Math.abs(c + e - 1) < 0.001;
}

/** A subject's total: coursework × its weight + exam × its weight, to one decimal; null without both marks. */
export function weightedTotal(coursework: number | null, exam: number | null, weights: AssessmentWeights): number | null {
  if (coursework === null || exam === null) return null;
  return roundToTenth(coursework * weights.coursework_weight + exam * weights.exam_weight);
}

/** The key's bands, best first. */
function sortGradeKey<T extends GradeBand>(key: readonly T[]): T[] {
  return [...key].sort((a, b) => b.min_total - a.min_total);
}

/**
 * Problems with a grade key, as sentences (empty when usable): at least one band, grades named
 * and distinct, minimums from 0 to 100 and distinct, and a band starting at 0 so every total has
 * a grade.
 */
export function checkGradeKey(key: readonly GradeBand[]): string[] {
  const problems: string[] = [];
  if (key.length === 0) return ['The grade key has no grades.'];
  const grades = new Set<string>();
  const minimums = new Set<number>();
  for (const band of key) {
    const name = band.grade.trim();
    if (name === '') problems.push('Every grade needs a name.');
    else if (grades.has(name)) problems.push(`Grade ${name} appears twice.`);
    grades.add(name);
    if (!Number.isFinite(band.min_total) || band.min_total < 0 || band.min_total > MAX_MARK) {
      problems.push(`Grade ${name}: the lowest total must be from 0 to ${MAX_MARK}.`);
    } else if (minimums.has(band.min_total)) {
      problems.push(`Two grades start at ${band.min_total}.`);
    }
    minimums.add(band.min_total);
  }
  if (!minimums.has(0)) problems.push('The lowest grade must start at 0, so every total has a grade.');
  return problems;
}

/** The grade a total earns: the best band whose minimum it reaches; null for no total or an empty key. */
export function gradeFor(total: number | null, key: readonly GradeBand[]): string | null {
  if (total === null || !Number.isFinite(total)) return null;
  const rounded = roundToTenth(total);
  return sortGradeKey(key).find((band) => rounded >= band.min_total)?.grade ?? null;
}

/** A band's range as printed on the card: 'A 75–100', 'B 65–74.9', …, 'E 0–49.9'. */
export function describeGradeKey(key: readonly GradeBand[]): { grade: string; range: string; description: string | null }[] {
  const sorted = sortGradeKey(key);
  return sorted.map((band, i) => {
    const upper = i === 0 ? MAX_MARK : roundToTenth(sorted[i - 1]!.min_total - 0.1);
    return {
      grade: band.grade,
      range: `${band.min_total}–${upper}`,
      description: band.description ?? null,
    };
  });
}

/** The mean of the totals that exist, to one decimal; null when there are none. */
export function averageOf(values: readonly (number | null)[]): number | null {
  const present = values.filter((value): value is number => value !== null && Number.isFinite(value));
  if (present.length === 0) return null;
  return roundToTenth(present.reduce((sum, value) => sum + value, 0) / present.length);
}

/** A student's place in a class. */
export interface RankedEntry<K> {
  key: K;
  average: number | null;
  /** 1 = best average; equal averages share a place (1, 2, 2, 4); null without an average. */
  position: number | null;
}

/**
 * Class positions by average, best first ("standard competition" ranking: 1, 2, 2, 4). Students
 * without an average get no position and are listed last; the class size counts everyone.
 */
export function rankByAverage<K>(entries: readonly { key: K; average: number | null }[]): RankedEntry<K>[] {
  const withAverage = entries.filter((e) => e.average !== null).sort((a, b) => b.average! - a.average!);
  const ranked: RankedEntry<K>[] = [];
  withAverage.forEach((entry, i) => {
    const previous = ranked[i - 1];
    const position = previous && previous.average === entry.average ? previous.position : i + 1;
    ranked.push({ key: entry.key, average: entry.average, position });
  });
  for (const entry of entries) if (entry.average === null) ranked.push({ key: entry.key, average: null, position: null });
  return ranked;
}

/** The class average: the mean of its students' averages, to one decimal; null for none. */
export function classAverageOf(averages: readonly (number | null)[]): number | null {
  return averageOf(averages);
}
