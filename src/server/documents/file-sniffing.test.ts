import { describe, expect, it } from 'vitest';
import { encryptedPdf } from '../../../tests/support/crafted-pdfs.js';
import { detectKind, findPdfProblem } from './file-sniffing.js';
import {
  ELF_EXECUTABLE,
  HTML_PAGE,
  ONE_PIXEL_JPEG,
  ONE_PIXEL_PNG,
  PDF_WITH_ESCAPED_JAVASCRIPT,
  PDF_WITH_JAVASCRIPT,
  pdfWithJsBytesInsideAStream,
  pdfWithScriptInObjectStream,
  SVG_WITH_SCRIPT,
  tinyPdf,
  WINDOWS_EXECUTABLE,
  ZIP_ARCHIVE,
} from '../../../tests/support/test-files.js';

describe('detectKind', () => {
  it('recognises PDF, PNG and JPEG by their bytes and nothing else', async () => {
    expect(detectKind(await tinyPdf())).toBe('pdf');
    expect(detectKind(ONE_PIXEL_PNG)).toBe('png');
    expect(detectKind(ONE_PIXEL_JPEG)).toBe('jpeg');
    for (const bytes of [ELF_EXECUTABLE, WINDOWS_EXECUTABLE, ZIP_ARCHIVE, SVG_WITH_SCRIPT, HTML_PAGE, Buffer.alloc(0), Buffer.from('%PDF')]) {
      expect(detectKind(bytes)).toBeNull();
    }
    // HTML in front of a PDF header is not a PDF.
    expect(detectKind(Buffer.concat([HTML_PAGE, await tinyPdf()]))).toBeNull();
    // A PNG signature without its IHDR chunk is not a PNG.
    expect(detectKind(Buffer.concat([ONE_PIXEL_PNG.subarray(0, 8), Buffer.alloc(40)]))).toBeNull();
  });
});

describe('findPdfProblem (the check on the worker pool)', () => {
  it('answers null for an ordinary PDF and what keeps the others out', async () => {
    expect(await findPdfProblem(await tinyPdf())).toBeNull();
    expect(await findPdfProblem(pdfWithJsBytesInsideAStream())).toBeNull();
    expect(await findPdfProblem(PDF_WITH_JAVASCRIPT)).toBe('active');
    expect(await findPdfProblem(PDF_WITH_ESCAPED_JAVASCRIPT)).toBe('active');
    expect(await findPdfProblem(pdfWithScriptInObjectStream())).toBe('active');
    expect(await findPdfProblem(encryptedPdf())).toBe('encrypted');
    expect(await findPdfProblem(Buffer.from('%PDF-1.7\n1 0 obj\n<< /Type\n', 'latin1'))).toBe('unreadable');
  });
});
