import { describe, expect, it } from 'vitest';
import { composeMail, portalLink } from './layout.js';
import { MAIL_TEMPLATES, renderStoredMail } from './index.js';

/** The frame of every message: escaped values, web links only, the same words in both parts. */

const context = { schoolName: 'St. Mary’s <College> & Co', publicUrl: 'https://portal.school.tt' };

describe('composeMail', () => {
  it('writes an HTML part with a language, a title and one heading, every value escaped, and a text part with the same words', () => {
    const mail = composeMail(
      {
        subject: 'Line one\r\nBcc: everyone@example.com',
        heading: 'Hello <b>"parent"</b>',
        blocks: [{ text: "Ms. O'Neil & <script>x</script>" }, { link: { label: 'Verify <now>', href: portalLink(context, '/family/verify?token=a%26b') } }],
      },
      context,
    );
    // A header never carries a line break.
    expect(mail.subject).toBe('Line one Bcc: everyone@example.com');
    expect(mail.html).toContain('<html lang="en">');
    expect(mail.html.match(/<h1 /g)).toHaveLength(1);
    expect(mail.html).toContain('<h1 style="margin:0 0 16px;font-size:22px;line-height:1.3;">Hello &lt;b&gt;&quot;parent&quot;&lt;/b&gt;</h1>');
    expect(mail.html).toContain('Ms. O&#39;Neil &amp; &lt;script&gt;x&lt;/script&gt;');
    expect(mail.html).toContain('St. Mary’s &lt;College&gt; &amp; Co');
    expect(mail.html).toContain('<a href="https://portal.school.tt/family/verify?token=a%26b" style="color:#0b57d0;font-weight:bold;">Verify &lt;now&gt;</a>');
    expect(mail.html).not.toMatch(/<script|<b>|<img/);
    expect(mail.text).toContain("Ms. O'Neil & <script>x</script>");
    expect(mail.text).toContain('Verify <now>:\nhttps://portal.school.tt/family/verify?token=a%26b');
    expect(mail.text).toContain('Sent by the student portal of St. Mary’s <College> & Co: https://portal.school.tt/');
  });

  it('refuses a link that is not a web address', () => {
    for (const href of ['javascript:alert(1)', 'data:text/html,hi', '/relative', 'mailto:x@example.com']) {
      expect(() => composeMail({ subject: 's', heading: 'h', blocks: [{ link: { label: 'x', href } }] }, context)).toThrow(/http\(s\) address/);
    }
  });
});

describe('the template registry', () => {
  it('renders a stored message by its name, and refuses a name it does not have (also inherited ones)', () => {
    expect(renderStoredMail('test-message', { requestedBy: 'Mr. Ali' }, context).subject).toBe('Test message from St. Mary’s <College> & Co');
    expect(() => renderStoredMail('no-such-template', {}, context)).toThrow(/no mail template is named "no-such-template"/);
    expect(() => renderStoredMail('toString', {}, context)).toThrow(/no mail template/);
    expect(Object.keys(MAIL_TEMPLATES)).toContain('test-message');
  });
});
