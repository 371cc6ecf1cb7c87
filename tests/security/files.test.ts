import http from 'node:http';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiErrorSchema } from '../../src/shared/api-error.js';
import { StoreFileAnswerSchema } from '../../src/shared/documents.schemas.js';
import { createTestApp } from '../support/test-app.js';
import { HTML_PAGE, ONE_PIXEL_JPEG, ONE_PIXEL_PNG, storeFileBody, SVG_WITH_SCRIPT, tinyPdf, ZIP_ARCHIVE } from '../support/test-files.js';
import { CSRF_COOKIE, CSRF_HEADER } from '../../src/server/http/csrf.js';
import { SESSION_COOKIE } from '../../src/server/http/session.js';
import { Agent, createSession, OWN_STUDENT, userIdOfStudent } from '../support/security/harness.js';

/**
 * The upload cases the documents suite (src/server/documents/documents.routes.test.ts:
 * executables named .pdf, SVG and HTML named .png, PDF scripts, names, the exact cap) leaves
 * open: polyglots, ZIP-based office files, and an oversized stream refused at the cap with
 * memory flat. The invariant for a polyglot: refused (415, nothing stored), or stored and served
 * only as what its bytes were checked to be, with nosniff and a sandboxing CSP, never as markup.
 */

const CAP = 1024 * 1024;
const t = await createTestApp({ uploadMaxBytes: CAP });
afterAll(() => t.close());
const db = t.database.db;

async function student(): Promise<Agent> {
  return new Agent(t.app, await createSession(db, await userIdOfStudent(db, OWN_STUDENT)));
}

const SAFE_TYPES = new Set(['application/pdf', 'image/png', 'image/jpeg']);

/** A local-file header of a ZIP entry named word/document.xml: what a .docx starts with. */
const DOCX_LIKE = Buffer.concat([
  Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 17, 0, 0, 0]),
  Buffer.from('word/document.xml<w:document/>', 'latin1'),
  ZIP_ARCHIVE,
]);

const POLYGLOTS: Array<[string, string, string, Buffer]> = [
  ['a PNG with an HTML page appended', 'picture', 'photo.png', Buffer.concat([ONE_PIXEL_PNG, HTML_PAGE])],
  ['a PNG with a ZIP appended (GIFAR-style)', 'picture', 'photo.png', Buffer.concat([ONE_PIXEL_PNG, DOCX_LIKE])],
  ['a JPEG with a script after its end marker', 'picture', 'photo.jpg', Buffer.concat([ONE_PIXEL_JPEG, SVG_WITH_SCRIPT])],
  ['an HTML page that contains a PDF header later', 'birth_certificate', 'birth.pdf', Buffer.concat([HTML_PAGE, Buffer.from('\n%PDF-1.7\n%%EOF\n', 'latin1')])],
  ['an SVG whose first bytes spell a PNG signature in a comment', 'picture', 'photo.png', Buffer.from(`<!--\u0089PNG-->${SVG_WITH_SCRIPT.toString('utf8')}`, 'utf8')],
  ['a .docx (ZIP) named .pdf', 'sea_slip', 'slip.pdf', DOCX_LIKE],
  ['a .docx (ZIP) named .png', 'picture', 'photo.png', DOCX_LIKE],
  ['a ZIP with a PDF header inside', 'birth_certificate', 'birth.pdf', Buffer.concat([DOCX_LIKE.subarray(0, 30), Buffer.from('%PDF-1.7\n', 'latin1'), ZIP_ARCHIVE])],
];

describe('polyglots and ZIP-based files', () => {
  it.each(POLYGLOTS)('%s: refused, or served only as a checked image/PDF with nosniff and sandbox', async (_label, type, filename, bytes) => {
    const agent = await student();
    const before = await db.selectFrom('documents').select(['sha256']).where('student_id', '=', OWN_STUDENT).where('file_type', '=', type).executeTakeFirst();
    const { body, headers } = storeFileBody(OWN_STUDENT, type, { filename, bytes, contentType: 'application/octet-stream' });
    const response = await agent.request('POST', { url: '/api/store-file', payload: body, headers });
    if (response.statusCode !== 200) {
      expect(response.statusCode, response.body).toBe(415);
      const after = await db.selectFrom('documents').select(['sha256']).where('student_id', '=', OWN_STUDENT).where('file_type', '=', type).executeTakeFirst();
      expect(after).toEqual(before);
      return;
    }
    const answer = StoreFileAnswerSchema.parse(response.json());
    const served = await agent.request('GET', { url: answer.file.url });
    expect(served.statusCode).toBe(200);
    expect(SAFE_TYPES.has(String(served.headers['content-type'])), String(served.headers['content-type'])).toBe(true);
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(String(served.headers['content-security-policy'])).toMatch(/(^|;\s*)sandbox(;|$)/);
    expect(String(served.headers['content-disposition'])).toMatch(/^inline; filename="[\x20-\x7e]+"/);
    expect(answer.file.name).toMatch(/\.(png|jpe?g|pdf)$/);
  });

  it('a real PNG, JPEG and PDF are still accepted (the cases above are not refused for another reason)', async () => {
    const agent = await student();
    for (const [type, filename, bytes] of [
      ['picture', 'me.png', ONE_PIXEL_PNG],
      ['picture', 'me.jpg', ONE_PIXEL_JPEG],
      ['birth_certificate', 'birth.pdf', await tinyPdf()],
    ] as const) {
      const { body, headers } = storeFileBody(OWN_STUDENT, type, { filename, bytes });
      const response = await agent.request('POST', { url: '/api/store-file', payload: body, headers });
      expect(response.statusCode, response.body).toBe(200);
    }
  });
});

describe('an oversized upload stream', () => {
  it('is refused with 413 at the cap, without reading the rest, with memory flat', { timeout: 60_000 }, async () => {
    const agent = await student();
    const csrf = await agent.csrf();
    const TOTAL = 256 * 1024 * 1024; // 256 MiB offered; the cap is 1 MiB
    const head = storeFileBody(OWN_STUDENT, 'birth_certificate', { filename: 'huge.pdf', bytes: Buffer.from('%PDF-1.7\n', 'latin1') });
    const boundary = /boundary=(.+)$/.exec(head.headers['content-type']!)![1]!;
    // The multipart envelope up to the file's first bytes, then an endless stream of zeros.
    const prefix = head.body.subarray(0, head.body.indexOf(Buffer.from('%PDF-1.7', 'latin1')) + 9);
    let produced = 0;
    const chunk = Buffer.alloc(64 * 1024, 0x30);
    const stream = new Readable({
      read() {
        if (produced === 0) {
          produced += prefix.length;
          this.push(prefix);
        } else if (produced < TOTAL) {
          produced += chunk.length;
          this.push(chunk);
        } else {
          this.push(Buffer.from(`\r\n--${boundary}--\r\n`));
          this.push(null);
        }
      },
    });
    const baseline = process.memoryUsage();
    let peakRss = baseline.rss;
    let peakBuffers = baseline.arrayBuffers;
    const sampler = setInterval(() => {
      const now = process.memoryUsage();
      peakRss = Math.max(peakRss, now.rss);
      peakBuffers = Math.max(peakBuffers, now.arrayBuffers);
    }, 5);
    // Over a real socket (inject would buffer the whole stream first): the app in this process.
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    let request: http.ClientRequest | undefined;
    const response = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      request = http.request(
        `${address}/api/store-file`,
        {
          method: 'POST',
          headers: {
            'content-type': head.headers['content-type']!,
            cookie: `${SESSION_COOKIE}=${agent.sessionToken}; ${CSRF_COOKIE}=${csrf}`,
            [CSRF_HEADER]: csrf,
          },
        },
        (res) => {
          let text = '';
          res.on('data', (data: Buffer) => (text += data.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      // The server may close the socket once it has answered: that ends our sending, not the test.
      request.on('error', (error) => (produced > 0 ? undefined : reject(error)));
      stream.pipe(request);
    });
    clearInterval(sampler);
    stream.unpipe();
    stream.destroy();
    request?.destroy();
    expect(response.status, response.body).toBe(413);
    expect(ApiErrorSchema.parse(JSON.parse(response.body)).code).toBe('payload_too_large');
    // Refused near the cap: far less than the whole stream was pulled.
    expect(produced).toBeLessThan(TOTAL / 4);
    // Memory flat: growth bounded by a few caps, not by what was offered.
    const growthMb = (Math.max(peakRss - baseline.rss, peakBuffers - baseline.arrayBuffers) / 1024 / 1024).toFixed(1);
    process.stdout.write(`oversized upload: ${(produced / 1024 / 1024).toFixed(1)} MiB read of ${TOTAL / 1024 / 1024} MiB offered, memory growth ${growthMb} MiB\n`);
    expect(peakBuffers - baseline.arrayBuffers).toBeLessThan(16 * CAP);
    expect(peakRss - baseline.rss).toBeLessThan(64 * 1024 * 1024);
    const stored = await db.selectFrom('documents').select('size').where('student_id', '=', OWN_STUDENT).where('file_type', '=', 'birth_certificate').executeTakeFirst();
    expect(stored?.size ?? 0).toBeLessThanOrEqual(CAP);
  });
});
