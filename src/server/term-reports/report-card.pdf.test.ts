import { describe, expect, it } from 'vitest';
import { readPdf } from '../../../tests/support/pdf-text.js';
import { joinRenderedPdfs, renderPdf } from '../pdf/render-on-pool.js';
import { buildReportCardSet, type ReportCardData } from './report-card.pdf.js';

/**
 * A class's report cards as one document (D59, D84): every card's pages are numbered on their own,
 * whatever the cards around it and however the class is split into parts, and each card's foot
 * names that card's student and the class of that term. PDF text only: SQLite only (vitest.config.ts).
 */

function card(index: number, subjects = 8): ReportCardData {
  return {
    schoolName: 'Test School',
    student: { id: `2024${String(index).padStart(4, '0')}`, first_name: `Pupil${index}`, last_name: 'Ramdial', date_of_birth: '2011-05-06' },
    year: 2025,
    term: 1,
    // The class of that term: last year's 4A, today in 5A.
    classId: '4A',
    formLevel: 4,
    formTeacher: 'Ms. Joseph',
    classSize: 12,
    position: index,
    average: 70,
    classAverage: 68.4,
    weights: { coursework_weight: 0.4, exam_weight: 0.6 },
    results: Array.from({ length: subjects }, (_, n) => ({
      subject: `Subject ${n + 1}`,
      coursework: 70,
      exam: 65,
      total: 67,
      grade: 'B',
      comment: 'Steady work.',
    })),
    attendance: { possibleSessions: 120, absentSessions: 4, absentSessionsExcused: 3, lateSessions: 2, lateSessionsExcused: 0 },
    formTeacherRemarks: 'Works well with others.',
    principalRemarks: 'Keep it up.',
    gradeKey: [
      { grade: 'A', min_total: 75, description: 'Excellent' },
      { grade: 'B', min_total: 60, description: 'Good' },
    ],
    printedAt: '2026-11-27 21:40',
  };
}

/** 'Page n of m' on each page, in page order. */
const pageNumbers = (pageTexts: readonly string[]) => pageTexts.map((text) => /Page (\d+) of (\d+)/.exec(text)?.slice(1).join('/'));

describe('a class’s report cards as one PDF', () => {
  it('numbers each card’s pages on their own, a long card 1 of 2 and 2 of 2, and its foot names the card’s student and class of that term', async () => {
    // Ten cards, the third long enough for two pages: more than a part (8 cards) holds.
    const cards = Array.from({ length: 10 }, (_, i) => card(i + 1, i === 2 ? 30 : 8));
    const pdf = await readPdf(await renderPdf(buildReportCardSet(cards, { classId: '5A', formLevel: 5 })));
    expect(pdf.pages).toBe(11);
    expect(pageNumbers(pdf.pageTexts)).toEqual(['1/1', '1/1', '1/2', '2/2', '1/1', '1/1', '1/1', '1/1', '1/1', '1/1', '1/1']);
    expect(pdf.pageTexts[3]).toContain('Pupil3 Ramdial (20240003) · Form 4 4A · Term 1 Michaelmas 2025-2026 · printed 2026-11-27 21:40');
    expect(pdf.pageTexts[10]).toContain('Pupil10 Ramdial (20240010) · Form 4 4A');
    // Today's class is nowhere on a card of last year.
    expect(pdf.text).not.toContain('5A');
  }, 120_000);

  it('keeps the numbering per card when parts are joined', async () => {
    const parts = await Promise.all([
      renderPdf(buildReportCardSet([card(1), card(2, 30)], { classId: '5A', formLevel: 5 })),
      renderPdf(buildReportCardSet([card(3)], { classId: '5A', formLevel: 5 })),
    ]);
    const pdf = await readPdf(await joinRenderedPdfs(parts));
    expect(pageNumbers(pdf.pageTexts)).toEqual(['1/1', '1/2', '2/2', '1/1']);
  }, 120_000);
});

describe('a card’s attendance', () => {
  it('keeps Sessions Absent and Late as counted and says how many an accepted absence note excuses (D93), nothing excused when nothing is missed', async () => {
    const one = { ...card(1), attendance: { possibleSessions: 120, absentSessions: 6, absentSessionsExcused: 4, lateSessions: 0, lateSessionsExcused: 0 } };
    const pdf = await readPdf(await renderPdf(buildReportCardSet([one], { classId: '4A', formLevel: 4 })));
    expect(pdf.text).toMatch(/Sessions Absent\s+6 of 120 \(4 excused\)/);
    expect(pdf.text).toMatch(/Sessions Late\s+0 of 120(?! \()/);
  }, 120_000);
});
