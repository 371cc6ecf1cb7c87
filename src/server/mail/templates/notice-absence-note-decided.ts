import { toDayFirstDate } from '../../../shared/dates.js';
import { composeMail, type MailContent, type MailContext, type RenderedMail } from './layout.js';
import { childLink, namesList, type NoticeData } from './notice-parts.js';

/**
 * The school accepted or declined an absence note (docs/decisions.md D93). The message names the
 * days and the school's answer, never the family's own words or the attachment: a notice is read
 * by the child too, and mail passes through other hands.
 */
export interface AbsenceNoteDecidedData extends NoticeData {
  decision: 'accepted' | 'declined';
  dateFrom: string;
  dateTo: string;
  /** The part of the day, in words ('Whole day'). */
  partLabel: string;
  /** The school's reason, in the words the family reads. */
  reason: string;
}

function daysText(data: AbsenceNoteDecidedData): string {
  return data.dateFrom === data.dateTo ? `on ${toDayFirstDate(data.dateFrom)}` : `from ${toDayFirstDate(data.dateFrom)} to ${toDayFirstDate(data.dateTo)}`;
}

export function absenceNoteDecidedContent(data: AbsenceNoteDecidedData, context: MailContext): MailContent {
  const who = namesList(data.studentNames);
  const days = daysText(data);
  const accepted = data.decision === 'accepted';
  return {
    subject: `Absence note for ${who} ${days}: ${accepted ? 'accepted' : 'declined'}`,
    heading: `The school ${accepted ? 'accepted' : 'declined'} the absence note for ${who}`,
    blocks: [
      {
        text: accepted
          ? `${context.schoolName} accepted the note for ${who} ${days} (${data.partLabel.toLowerCase()}): the absences and late arrivals it covers are excused.`
          : `${context.schoolName} declined the note for ${who} ${days} (${data.partLabel.toLowerCase()}): the absences and late arrivals it covers stay unexcused.`,
      },
      ...(data.reason ? [{ text: `The school's reason: ${data.reason}` }] : []),
      { link: { label: 'See the absence notes', href: childLink(data, context, '/absence-notes') } },
    ],
  };
}

export function absenceNoteDecided(data: AbsenceNoteDecidedData, context: MailContext): RenderedMail {
  return composeMail(absenceNoteDecidedContent(data, context), context);
}
