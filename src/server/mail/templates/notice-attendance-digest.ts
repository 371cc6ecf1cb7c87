import { DAY_ATTENDANCE_WORDS, type DayAttendance } from '../../../shared/attendance.stats.js';
import { composeMail, portalLink, type MailContent, type MailContext, type RenderedMail } from './layout.js';
import { unsubscribeBlocks, unsubscribeHeaders, type NoticeData } from './notice-parts.js';

/** One line of the day's digest: a child absent, or late with the time in. */
export interface DigestLine {
  studentName: string;
  /** Whose line: the link to that child's attendance (digests stored before it have none). */
  studentId?: string;
  /** absent: no gate scan; absent-am / absent-pm: a session missed; late: arrived after the bell. */
  status: Exclude<DayAttendance, 'on-time'>;
  timeIn: string | null;
}

/** The day's absences and lates of a family's children. */
export interface AttendanceDigestData extends NoticeData {
  /** yyyy-MM-dd */
  date: string;
  lines: DigestLine[];
}

/** A child's day in the attendance screen's words (src/shared/attendance.stats.ts), with the time of arrival where it says more. */
function describe(line: DigestLine): string {
  const words = `${line.studentName}: ${DAY_ATTENDANCE_WORDS[line.status]}`;
  if (line.status === 'late') return `${words}, arrived at ${line.timeIn ?? 'an unrecorded time'}.`;
  if (line.status === 'absent-am') return `${words}${line.timeIn ? ` (arrived at ${line.timeIn})` : ''}.`;
  return `${words}.`;
}

/** A link to each child's attendance, named for the child; one plain link for a digest stored without the children's IDs. */
function attendanceLinks(lines: readonly DigestLine[], context: MailContext) {
  const children = [...new Map(lines.flatMap((line) => (line.studentId ? [[line.studentId, line.studentName] as const] : []))).entries()];
  if (children.length === 0) return [{ link: { label: 'See attendance in the portal', href: portalLink(context, '/attendance') } }];
  return children.map(([id, name]) => ({ link: { label: `See ${name}’s attendance`, href: portalLink(context, `/attendance?student=${encodeURIComponent(id)}`) } }));
}

/**
 * For each child, a link that opens the absence-note form on that day and child (docs/decisions.md
 * D93): the family answers the record where they read it. A digest stored without the children's
 * IDs has none.
 */
function explainLinks(data: AttendanceDigestData, context: MailContext) {
  const children = [...new Map(data.lines.flatMap((line) => (line.studentId ? [[line.studentId, line.studentName] as const] : []))).entries()];
  const named = children.length > 1;
  return children.map(([id, name]) => ({
    link: {
      label: named ? `Explain ${name}’s absence or late arrival` : 'Explain this absence',
      href: portalLink(context, `/absence-notes?student=${encodeURIComponent(id)}&date=${encodeURIComponent(data.date)}`),
    },
  }));
}

export function attendanceDigestContent(data: AttendanceDigestData, context: MailContext): MailContent {
  return {
    subject: `Attendance on ${data.date}: ${data.lines.length === 1 ? '1 record' : `${data.lines.length} records`} for your family`,
    heading: `Absences and lates on ${data.date}`,
    blocks: [
      { text: `${context.schoolName} recorded the following for your children today:` },
      ...data.lines.map((line) => ({ text: describe(line) })),
      { text: 'You can explain an absence or a late arrival in the portal; the school will tell you its answer. If a record is wrong, please contact the school office.' },
      ...explainLinks(data, context),
      ...attendanceLinks(data.lines, context),
      ...unsubscribeBlocks(data, context, 'daily attendance messages'),
    ],
  };
}

export function attendanceDigest(data: AttendanceDigestData, context: MailContext): RenderedMail {
  const headers = unsubscribeHeaders(data, context);
  return { ...composeMail(attendanceDigestContent(data, context), context), ...(headers ? { headers } : {}) };
}
