import { z } from 'zod/mini';

/**
 * The one rule for every person's name the portal keeps: a student's and their parents' on the
 * registration record, a family account's, a staff account's. Names are shown in lists, report
 * cards, exports, the office's screens and the mails families receive, so a name must read as
 * what it is (docs/security.md, "Names that read as someone else's"):
 * - no bidirectional control characters: they reorder what follows wherever the name is shown,
 *   so a name can be made to read as another child's ("Trojan Source", CVE-2021-42574);
 * - no line breaks or other control characters: a name is one line in a mail's greeting, a
 *   spreadsheet cell or a PDF row, and a second line could pass as the school's own words;
 * - no web address: a name printed in a mail becomes a link the school seems to send.
 * Names in any script, with accents, apostrophes, hyphens and initials ("St. John") pass.
 */

export const PERSON_NAME_MESSAGES = {
  bidiControl: 'Names cannot contain hidden text-direction characters. Type the name instead of pasting it.',
  lineBreak: 'A name is one line: remove the line breaks and other control characters.',
  link: 'A name cannot contain a web address.',
  digit: 'A name has no digits: type the letters of the name.',
} as const;

/**
 * Unicode's bidirectional embedding, override and isolate controls (U+202A–U+202E,
 * U+2066–U+2069). No name needs them.
 */
export const BIDI_CONTROL_PATTERN = /[\u202A-\u202E\u2066-\u2069]/;

/** Control characters (C0, DEL, C1) and the line and paragraph separators. */
const CONTROL_PATTERN = /[\u0000-\u001F\u007F-\u009F\u2028\u2029]/;

/**
 * What a mail reader or a chat app turns into a link: a scheme (`https://`, `mailto:`), `www.`,
 * or a host name ending in a common top-level domain (`evil.com`, `pay.school.tt`).
 */
const LINK_PATTERN = /(?:\b[a-z][a-z0-9+.-]*:\/\/|\b(?:mailto|javascript|data):|\bwww\.|\b[a-z0-9-]+\.(?:com|net|org|edu|gov|info|biz|io|co|tt|us|uk|me|app|link|click|xyz|ly|ru|cn|top|site|online)\b)/i;

/** Every problem with a name, in the order a person fixes them; empty when the name is fine. */
export function personNameProblems(name: string): string[] {
  const problems: string[] = [];
  if (BIDI_CONTROL_PATTERN.test(name)) problems.push(PERSON_NAME_MESSAGES.bidiControl);
  if (CONTROL_PATTERN.test(name)) problems.push(PERSON_NAME_MESSAGES.lineBreak);
  if (LINK_PATTERN.test(name)) problems.push(PERSON_NAME_MESSAGES.link);
  return problems;
}

/** Any decimal digit, in any script. */
const DIGIT_PATTERN = /\p{Nd}/u;

/**
 * The rule of a student's own name (first, middle and last name; D77): every person's name rule,
 * and no digits ("J4den"). Other name fields keep the rule above alone: the emergency contact and
 * the relative in school hold a name with what tells the person apart ("Aunt Jo, 2nd floor",
 * "Maria Ali 3B"), and a parent's or an account's name is the person's own business.
 */
export function ownNameProblems(name: string): string[] {
  const problems = personNameProblems(name);
  if (DIGIT_PATTERN.test(name)) problems.push(PERSON_NAME_MESSAGES.digit);
  return problems;
}

/** The rule as words, for the API description of a name field. */
export const PERSON_NAME_RULE_TEXT =
  'a person’s name: no text-direction controls (U+202A–U+202E, U+2066–U+2069), no line breaks or control characters, no web address';
/** A student's own name in words: the rule above and no digits. */
export const OWN_NAME_RULE_TEXT = `${PERSON_NAME_RULE_TEXT}, no digits`;

/** The rule as a zod check for a name's schema: one issue per problem, so each message reaches the field. */
export function personNameCheck() {
  return z.superRefine<string>((name, ctx) => {
    for (const message of personNameProblems(name)) ctx.addIssue({ code: 'custom', message, input: name });
  });
}
