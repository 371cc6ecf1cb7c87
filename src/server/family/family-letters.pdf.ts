import type { Content } from 'pdfmake/interfaces.js';
import { COLORS, keyValueGrid, pageFooter, schoolHeader, sectionTitle } from '../pdf/pieces.js';
import { PAGE_SIZES, type Printout } from '../pdf/printout.js';
import type { FamilyLetter } from './family.service.js';
import { schoolDayOf } from '../../shared/dates.js';

/**
 * The family code letters: one page per student, a class's letters as one PDF, for
 * the office to print and send home. Each says whose code it is, the code, until when it works and
 * what to do with it, in the words the sign-in page uses.
 */

export const FAMILY_LETTER_TITLE = 'Your family account code';

export interface FamilyLettersInput {
  schoolName: string;
  /** Where families open the portal (PUBLIC_URL). */
  portalUrl: string;
  letters: readonly FamilyLetter[];
  /** 'yyyy-MM-dd HH:mm' in the school's time zone. */
  printedAt: string;
}

function letterPage(input: FamilyLettersInput, letter: FamilyLetter, index: number): Content[] {
  // The school's day the code ends on, not UTC's (D84).
  const until = schoolDayOf(letter.expiresAt);
  return [
    { stack: [schoolHeader(input.schoolName, FAMILY_LETTER_TITLE, 'For the parent or guardian of')], ...(index > 0 ? { pageBreak: 'before' as const } : {}) },
    keyValueGrid(
      [
        ['Student', letter.name],
        ['Student ID', letter.studentId],
        ['Class', letter.className],
      ],
      3,
    ),
    sectionTitle('Your code'),
    { text: letter.code, fontSize: 30, bold: true, characterSpacing: 4, alignment: 'center', color: COLORS.accent, margin: [0, 10, 0, 4] },
    { text: `It works once, until ${until}. Keep this letter private: with your child's date of birth, the code opens their school record.`, fontSize: 10, alignment: 'center', margin: [0, 0, 0, 10] },
    sectionTitle('How to use it'),
    {
      ol: [
        `Open ${input.portalUrl} on a phone or computer.`,
        'Choose “Parent or guardian? Sign in with your e-mail”. If you have no family account yet, choose “Create a family account”, then open the link we e-mail you.',
        `Choose “Add a child” and enter the code above with ${letter.name}'s date of birth (yyyy-MM-dd).`,
        'Each of your children gets their own letter; add each one to the same account and switch between them at the top of the page.',
      ],
      fontSize: 11,
      margin: [0, 4, 0, 10],
    },
    { text: 'No e-mail, or the code does not work? The school office can link your account or print a new letter.', fontSize: 10, color: COLORS.muted },
  ];
}

/** The letters of a class as one document, a page each, in class order. */
export function buildFamilyLetters(input: FamilyLettersInput): Printout {
  return {
    info: { title: `${FAMILY_LETTER_TITLE} — ${input.letters[0]?.className ?? ''}` },
    pageSize: PAGE_SIZES.letter,
    pageMargins: [50, 40, 50, 50],
    content: input.letters.flatMap((letter, index) => letterPage(input, letter, index)),
    footer: pageFooter(`${input.schoolName} · Family account codes · printed ${input.printedAt}`),
    defaultStyle: { fontSize: 11 },
  };
}
