import { portalLink, type MailBlock, type MailContext } from './layout.js';

/**
 * Parts shared by the messages to families (docs/decisions.md D57). Each notice
 * template describes its message as content (subject, heading, blocks) so that the portal's
 * notices list shows the same words as the mail; the optional kinds end with their unsubscribe link.
 */

/** Every notice names the children it is about; the optional kinds carry their signed unsubscribe token. */
export interface NoticeData {
  studentNames: string[];
  /** The children's ids, in the order of their names: a link about one child opens that child's record. */
  studentIds?: string[];
  /** Set for the optional kinds (digest, reminders): the link turns that kind off for this recipient. */
  unsubscribeToken?: string;
}

/** "Ann", "Ann and Ben", "Ann, Ben and Cal". */
export function namesList(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? 'your child';
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/**
 * A link to a page of the portal about the notice's child: a family with several children lands on
 * the one the notice names (the child switcher's `?student=`), not on whichever they chose last.
 */
export function childLink(data: NoticeData, context: MailContext, path: string): string {
  const only = data.studentIds?.length === 1 ? data.studentIds[0] : undefined;
  return portalLink(context, only ? `${path}?student=${encodeURIComponent(only)}` : path);
}

/**
 * RFC 8058 one-click unsubscribe of an optional kind (D84): mail programs offer "Unsubscribe" and
 * POST `List-Unsubscribe=One-Click` to the link, which turns that kind off for that recipient
 * without a sign-in; the token is the same signed one the message's own link carries. Nothing for
 * the other kinds.
 */
export function unsubscribeHeaders(data: NoticeData, context: MailContext): Record<string, string> | undefined {
  if (!data.unsubscribeToken) return undefined;
  return {
    'List-Unsubscribe': `<${portalLink(context, `/api/mail/unsubscribe?token=${encodeURIComponent(data.unsubscribeToken)}`)}>`,
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  };
}

/** The closing link of an optional kind; nothing for the others. */
export function unsubscribeBlocks(data: NoticeData, context: MailContext, what: string): MailBlock[] {
  if (!data.unsubscribeToken) return [];
  return [
    { text: `You receive ${what} because your e-mail is on a child's record at ${context.schoolName}. You can turn these off, and only these:` },
    { link: { label: `Stop ${what}`, href: portalLink(context, `/notices/unsubscribe?token=${encodeURIComponent(data.unsubscribeToken)}`) } },
  ];
}
