import escapeHtml from 'escape-html';

/**
 * The one frame every message is written in (docs/decisions.md D53): short, plain,
 * accessible HTML (a language, a title, one heading, real links, no images, no layout tables) and
 * the same words as a text part. A template describes its message as blocks and this file writes
 * both parts, so the two never say different things and no template writes HTML by hand: every
 * value reaches the HTML through escape-html, whoever typed it.
 */

/** What every template is told besides its data: from the configuration at send time. */
export interface MailContext {
  schoolName: string;
  /** PUBLIC_URL, without a trailing slash: the base of every link. */
  publicUrl: string;
}

export interface RenderedMail {
  subject: string;
  html: string;
  text: string;
  /** Headers beyond the ordinary ones (List-Unsubscribe of an optional notice, D84). */
  headers?: Record<string, string>;
}

/** A template: its data and the context in, the message out. */
export type MailTemplate<D> = (data: D, context: MailContext) => RenderedMail;

/** A paragraph of plain text, or a link on a line of its own (the action the message is about). */
export type MailBlock = { text: string } | { link: { label: string; href: string } };

export interface MailContent {
  subject: string;
  heading: string;
  blocks: readonly MailBlock[];
}

/** An address on the portal: PUBLIC_URL and a path (with its query already encoded). */
export function portalLink(context: MailContext, pathAndQuery: string): string {
  return `${context.publicUrl}${pathAndQuery.startsWith('/') ? '' : '/'}${pathAndQuery}`;
}

/** Only web addresses become links: a template bug cannot send a javascript: or data: link. */
function requireWebAddress(href: string): string {
  const protocol = URL.canParse(href) ? new URL(href).protocol : '';
  if (protocol !== 'http:' && protocol !== 'https:') throw new Error(`a mail link must be an http(s) address: ${href}`);
  return href;
}

/** One line, no line breaks: the subject is a header. */
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

const STYLE = {
  body: 'margin:0;padding:24px 16px;background:#ffffff;color:#1f1f1f;font-family:Arial,Helvetica,sans-serif;font-size:16px;line-height:1.5;',
  school: 'margin:0 0 8px;color:#4a4a4a;font-size:14px;',
  heading: 'margin:0 0 16px;font-size:22px;line-height:1.3;',
  paragraph: 'margin:0 0 16px;',
  link: 'color:#0b57d0;font-weight:bold;',
  footer: 'margin:24px 0 0;padding-top:12px;border-top:1px solid #d0d0d0;color:#4a4a4a;font-size:14px;',
} as const;

/** Writes a message's HTML and text parts from its blocks. */
export function composeMail(content: MailContent, context: MailContext): RenderedMail {
  const subject = oneLine(content.subject);
  const home = requireWebAddress(portalLink(context, '/'));
  const htmlBlocks = content.blocks.map((block) => {
    if ('text' in block) return `<p style="${STYLE.paragraph}">${escapeHtml(block.text)}</p>`;
    const href = requireWebAddress(block.link.href);
    return `<p style="${STYLE.paragraph}"><a href="${escapeHtml(href)}" style="${STYLE.link}">${escapeHtml(block.link.label)}</a></p>`;
  });
  const html = [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(subject)}</title>`,
    '</head>',
    `<body style="${STYLE.body}">`,
    `<p style="${STYLE.school}">${escapeHtml(context.schoolName)}</p>`,
    `<h1 style="${STYLE.heading}">${escapeHtml(content.heading)}</h1>`,
    ...htmlBlocks,
    `<p style="${STYLE.footer}">Sent by the student portal of ${escapeHtml(context.schoolName)}: <a href="${escapeHtml(home)}" style="color:#0b57d0;">${escapeHtml(home)}</a></p>`,
    '</body>',
    '</html>',
  ].join('\n');
  const textBlocks = content.blocks.map((block) => ('text' in block ? block.text : `${block.link.label}:\n${requireWebAddress(block.link.href)}`));
  const text = [context.schoolName, '', content.heading, '', ...textBlocks.flatMap((block) => [block, '']), '--', `Sent by the student portal of ${context.schoolName}: ${home}`, ''].join('\n');
  return { subject, html, text };
}
