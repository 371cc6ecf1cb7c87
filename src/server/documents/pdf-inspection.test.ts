import { describe, expect, it } from 'vitest';
import { encryptedPdf, multiPageScan, pdfWithClickableLink, refusedPdfs, unreadablePdfs } from '../../../tests/support/crafted-pdfs.js';
import { buildPlaceholderDocuments } from '../db/demo-data/placeholder-documents.js';
import { renderPdf } from '../pdf/render-on-pool.js';
import { inspectPdf } from './pdf-inspection.js';

/**
 * The PDF check by parsing (docs/decisions.md D17), run in this thread: every
 * kind of active content refused, each way of hiding it from a byte pattern included, and the
 * documents a school really receives accepted. The upload route runs the same check on the
 * worker pool (documents.routes.test.ts).
 */

describe('refused', () => {
  it.each(refusedPdfs())('%s', async (_label, bytes) => {
    expect(await inspectPdf(bytes)).toMatchObject({ ok: false, reason: 'active' });
  });

  it('an encrypted PDF', async () => {
    expect(await inspectPdf(encryptedPdf())).toMatchObject({ ok: false, reason: 'encrypted' });
  });

  it.each(unreadablePdfs())('%s', async (_label, bytes) => {
    expect(await inspectPdf(bytes)).toMatchObject({ ok: false, reason: 'unreadable' });
  });
});

describe('accepted', () => {
  it("the portal's own documents and the demo school's placeholder files", async () => {
    expect(await inspectPdf(await renderPdf({ content: [{ text: 'Report card' }] }))).toEqual({ ok: true });
    const placeholders = [...buildPlaceholderDocuments().values()].filter((file) => file.mime === 'application/pdf');
    expect(placeholders.length).toBeGreaterThan(0);
    for (const file of placeholders) expect(await inspectPdf(file.bytes)).toEqual({ ok: true });
  });

  it('a multi-page scan saved with object streams, whose picture bytes spell "/JS", "stream" and "obj"', async () => {
    expect(await inspectPdf(await multiPageScan())).toEqual({ ok: true });
  });

  it('a page with http and mailto links the reader clicks (annotation and bookmark), which are not open actions', async () => {
    expect(await inspectPdf(pdfWithClickableLink())).toEqual({ ok: true });
  });
});
