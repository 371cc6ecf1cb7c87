import { randomBytes } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { renderPdf } from '../../src/server/pdf/render-on-pool.js';

/**
 * Files for the upload tests, built in memory: real ones of each kind and impostors that carry a
 * right-looking name (an executable named .pdf, an SVG or HTML page named .png, …).
 */

/** A one-page PDF made by the portal's own renderer. */
export function tinyPdf(text = 'Scanned birth certificate'): Promise<Buffer> {
  return renderPdf({ content: [{ text }] });
}

/** A 1×1 PNG. */
export const ONE_PIXEL_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** A 1×1 baseline JPEG that decodes (made by libvips). */
export const ONE_PIXEL_JPEG = Buffer.from(
  '/9j/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19iZ2hnPk1xeXBkeFxlZ2P/2wBDARESEhgVGC8aGi9jQjhCY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2P/wAARCAABAAEDASIAAhEBAxEB/8QAFAABAAAAAAAAAAAAAAAAAAAAAP/EABQQAQAAAAAAAAAAAAAAAAAAAAD/xAAUAQEAAAAAAAAAAAAAAAAAAAAA/8QAFBEBAAAAAAAAAAAAAAAAAAAAAP/aAAwDAQACEQMRAD8AAA//2Q==',
  'base64',
);

/** Only a JPEG's first bytes, then noise: its header is right, nothing else is. */
export function headerOnlyJpeg(): Buffer {
  return Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(200)]);
}

/** A Linux executable's header (ELF). */
export const ELF_EXECUTABLE = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(120, 0)]);
/** A Windows executable's header (MZ … PE). */
export const WINDOWS_EXECUTABLE = Buffer.concat([Buffer.from('MZ', 'latin1'), Buffer.alloc(58, 0), Buffer.from([0x80, 0, 0, 0]), Buffer.alloc(64, 0), Buffer.from('PE\0\0', 'latin1')]);
/** An empty ZIP archive (end of central directory only). */
export const ZIP_ARCHIVE = Buffer.concat([Buffer.from([0x50, 0x4b, 0x05, 0x06]), Buffer.alloc(18, 0)]);
export const SVG_WITH_SCRIPT = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>', 'utf8');
export const HTML_PAGE = Buffer.from('<!doctype html><html><body><script>fetch("/api/students")</script></body></html>', 'utf8');

/** A hand-written PDF whose objects are given as text (for the script checks). */
export function handMadePdf(objects: readonly (string | Buffer)[]): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n', 'latin1')];
  objects.forEach((object, index) => {
    parts.push(Buffer.from(`${index + 1} 0 obj\n`, 'latin1'), typeof object === 'string' ? Buffer.from(object, 'latin1') : object, Buffer.from('\nendobj\n', 'latin1'));
  });
  parts.push(Buffer.from('trailer\n<< /Root 1 0 R >>\n%%EOF\n', 'latin1'));
  return Buffer.concat(parts);
}

/** A PDF that opens with a JavaScript action. */
export const PDF_WITH_JAVASCRIPT = handMadePdf([
  '<< /Type /Catalog /Pages 2 0 R /OpenAction 3 0 R >>',
  '<< /Type /Pages /Kids [] /Count 0 >>',
  '<< /S /JavaScript /JS (app.alert\\(1\\)) >>',
]);

/** The same with the names written in #xx escapes (/J#61vaScript = /JavaScript). */
export const PDF_WITH_ESCAPED_JAVASCRIPT = handMadePdf([
  '<< /Type /Catalog /Pages 2 0 R /OpenAction 3 0 R >>',
  '<< /Type /Pages /Kids [] /Count 0 >>',
  '<< /S /J#61vaScript /J#53 (app.alert\\(1\\)) >>',
]);

/** The action hidden inside a compressed object stream, where a plain byte scan cannot see it. */
export function pdfWithScriptInObjectStream(): Buffer {
  const hidden = deflateSync(Buffer.from('3 0 << /S /JavaScript /JS (app.alert\\(1\\)) >>', 'latin1'));
  return handMadePdf([
    '<< /Type /Catalog /Pages 2 0 R /OpenAction 3 0 R >>',
    '<< /Type /Pages /Kids [] /Count 0 >>',
    Buffer.concat([
      Buffer.from(`<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode /Length ${hidden.length} >>\nstream\n`, 'latin1'),
      hidden,
      Buffer.from('\nendstream', 'latin1'),
    ]),
  ]);
}

/** A PDF whose page data happens to contain "/JS " bytes inside a stream: harmless, accepted. */
export function pdfWithJsBytesInsideAStream(): Buffer {
  const data = Buffer.concat([randomBytes(64), Buffer.from(' /JS ', 'latin1'), randomBytes(64)]);
  return handMadePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [] /Count 0 >>',
    Buffer.concat([Buffer.from(`<< /Length ${data.length} /Filter /DCTDecode >>\nstream\n`, 'latin1'), data, Buffer.from('\nendstream', 'latin1')]),
  ]);
}

/** A valid PDF padded with a trailing comment to exactly `size` bytes. */
export async function pdfOfSize(size: number): Promise<Buffer> {
  const pdf = await tinyPdf('Padded');
  if (pdf.length + 2 > size) throw new Error('size too small for a PDF');
  return Buffer.concat([pdf, Buffer.from('%', 'latin1'), Buffer.alloc(size - pdf.length - 2, 0x41), Buffer.from('\n', 'latin1')]);
}

type Part = { name: string; value: string } | { name: string; filename: string; contentType?: string; bytes: Buffer };

/** A multipart/form-data body built by hand (what a browser's FormData sends). */
export function multipartBody(parts: readonly Part[]): { body: Buffer; headers: Record<string, string> } {
  const boundary = `----portal-test-${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n`, 'latin1'));
    if ('value' in part) {
      chunks.push(Buffer.from(`Content-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`, 'utf8'));
    } else {
      const header = `Content-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\nContent-Type: ${part.contentType ?? 'application/octet-stream'}\r\n\r\n`;
      chunks.push(Buffer.from(header, 'utf8'), part.bytes, Buffer.from('\r\n', 'latin1'));
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`, 'latin1'));
  return { body: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** The body of `POST /api/store-file`: id and file_type first (as the portal's page sends them), then the file. */
export function storeFileBody(
  studentId: string,
  fileType: string,
  file: { filename: string; bytes: Buffer; contentType?: string } | null,
  options: { fileFirst?: boolean } = {},
) {
  const fields: Part[] = [
    { name: 'id', value: studentId },
    { name: 'file_type', value: fileType },
  ];
  if (!file) return multipartBody(fields);
  const filePart: Part = { name: 'file', ...file };
  return multipartBody(options.fileFirst ? [filePart, ...fields] : [...fields, filePart]);
}
