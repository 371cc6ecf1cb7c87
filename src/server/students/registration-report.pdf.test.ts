import { describe, expect, it } from 'vitest';
import { readPdf } from '../../../tests/support/pdf-text.js';
import { renderPdf } from '../pdf/render-on-pool.js';
import { registrationClassSection, registrationReportFrame, registrationSummary, totalsOf, type ReportClass } from './registration-report.pdf.js';

/**
 * The registration report's layout (D84): a student's row never splits across two pages, and the
 * summary prints a school total only beside several classes. PDF text only: SQLite only (vitest.config.ts).
 */

const heading = { schoolName: 'Test School', scope: 'Form 3 3B', printedAt: '2026-11-27 21:40' };

/** A class whose rows are tall: each student misses many documents, each named for the student. */
function tallClass(students: number): ReportClass {
  return {
    classId: '3B',
    formLevel: 3,
    formTeacher: 'Mr. Ali',
    students: Array.from({ length: students }, (_, i) => {
      const id = `2024${String(i + 1).padStart(4, '0')}`;
      return {
        id,
        name: `Pupil${i + 1}, Test`,
        progress: { studentData: 1, familyData: 1, healthData: 0, otherData: 0, documents: 0, submit: 0, termsAndConditions: 0 },
        state: 'in_progress' as const,
        missingDocuments: Array.from({ length: 9 }, (_, n) => `Doc${n + 1}of${id}`),
        termsAgreedOn: null,
        termsAgreed: false,
      };
    }),
  };
}

describe('the registration report’s layout', () => {
  it('keeps each student’s row whole: all of a row’s text is on the page its student ID is on', async () => {
    const group = tallClass(40);
    const pdf = await readPdf(await renderPdf({ ...registrationReportFrame(heading), content: [registrationClassSection(group)] }));
    expect(pdf.pages).toBeGreaterThan(2);
    for (const student of group.students) {
      const pages = pdf.pageTexts.flatMap((text, page) => (text.replace(/\s+/g, '').includes(student.id) ? [page] : []));
      // The student's ID also ends each of their document names: every page holding any of it.
      expect(new Set(pages).size, `${student.id} on pages ${pages.join(', ')}`).toBe(1);
      expect(pdf.pageTexts[pages[0]!]!.replace(/\s+/g, '')).toContain(`Doc9of${student.id}`);
    }
  }, 120_000);

  it('prints the school total only when the report holds several classes', async () => {
    const one = tallClass(3);
    const summary = (classes: ReportClass[]) =>
      registrationSummary(
        heading,
        classes.map((group) => ({ classId: group.classId, formLevel: group.formLevel, formTeacher: group.formTeacher, totals: totalsOf(group.students) })),
      );
    const single = await readPdf(await renderPdf({ ...registrationReportFrame(heading), content: summary([one]) }));
    expect(single.text).toContain('Form 3 3B');
    expect(single.text).not.toContain('School total');
    const several = await readPdf(await renderPdf({ ...registrationReportFrame(heading), content: summary([one, { ...tallClass(2), classId: '3C' }]) }));
    expect(several.text).toContain('School total');
  }, 120_000);
});
