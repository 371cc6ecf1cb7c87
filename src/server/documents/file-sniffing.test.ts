import { describe, expect, it } from 'vitest';
import { detectKind, isUnsafePdf } from './file-sniffing.js';
import {
  ELF_EXECUTABLE,
  handMadePdf,
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

describe('isUnsafePdf', () => {
  it('passes an ordinary PDF and one whose page data merely contains "/JS"', async () => {
    expect(isUnsafePdf(await tinyPdf())).toBe(false);
    expect(isUnsafePdf(pdfWithJsBytesInsideAStream())).toBe(false);
  });

  it('refuses scripts (plain, #xx-escaped, in an object stream), launch actions and encryption', () => {
    expect(isUnsafePdf(PDF_WITH_JAVASCRIPT)).toBe(true);
    expect(isUnsafePdf(PDF_WITH_ESCAPED_JAVASCRIPT)).toBe(true);
    expect(isUnsafePdf(pdfWithScriptInObjectStream())).toBe(true);
    expect(isUnsafePdf(handMadePdf(['<< /Type /Catalog /OpenAction << /S /Launch /F (cmd.exe) >> >>']))).toBe(true);
    const encrypted = handMadePdf(['<< /Type /Catalog >>', '<< /Filter /Standard /V 2 >>']).toString('latin1').replace('trailer\n<<', 'trailer\n<< /Encrypt 2 0 R');
    expect(isUnsafePdf(Buffer.from(encrypted, 'latin1'))).toBe(true);
  });

  it('refuses an object stream it cannot read, and reads an unfiltered one', () => {
    const lzw = handMadePdf(['<< /Type /ObjStm /N 1 /First 4 /Filter /LZWDecode /Length 4 >>\nstream\nabcd\nendstream']);
    expect(isUnsafePdf(lzw)).toBe(true);
    const plain = handMadePdf(['<< /Type /ObjStm /N 1 /First 4 /Length 20 >>\nstream\n3 0 << /S /Launch >>\nendstream']);
    expect(isUnsafePdf(plain)).toBe(true);
    const harmless = handMadePdf(['<< /Type /ObjStm /N 1 /First 4 /Length 20 >>\nstream\n3 0 << /Type /Page >>\nendstream']);
    expect(isUnsafePdf(harmless)).toBe(false);
  });
});
