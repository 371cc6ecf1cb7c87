import { createHash } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';

/**
 * Small valid files for the document slots of the students who finished registration, built by
 * hand so the seeder needs no PDF or image library.
 */

/** A one-page PDF with a line of text; built by hand so the seeder needs no PDF library. */
function buildPlaceholderPdf(title: string): Buffer {
  const text = `Demo school placeholder: ${title}`.replace(/[()\\]/g, '');
  const stream = `BT /F1 18 Tf 72 720 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/** A 96×128 grey head-and-shoulders silhouette for the picture slot. */
function buildPlaceholderPng(): Buffer {
  const width = 96;
  const height = 128;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale
  const raw = Buffer.alloc((width + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (width + 1)] = 0; // filter: none
    for (let x = 0; x < width; x++) {
      const dx = x - width / 2;
      const head = dx * dx + (y - 48) ** 2 < 22 * 22;
      const shoulders = y > 80 && Math.abs(dx) < 40 - Math.max(0, 100 - y);
      raw[y * (width + 1) + 1 + x] = head || shoulders ? 150 : 225;
    }
  }
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    signature,
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(raw)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

export interface PlaceholderDocument {
  file_name: string;
  mime: string;
  bytes: Buffer;
  sha256: string;
}

/** One placeholder file per document type (docs/requirements.md R7): PDFs for the papers, PNGs for the images. */
export function buildPlaceholderDocuments(): ReadonlyMap<string, PlaceholderDocument> {
  const withHash = (file_name: string, mime: string, bytes: Buffer): PlaceholderDocument => ({
    file_name,
    mime,
    bytes,
    sha256: createHash('sha256').update(bytes).digest('hex'),
  });
  const pdf = (title: string, fileName: string) => withHash(fileName, 'application/pdf', buildPlaceholderPdf(title));
  const png = buildPlaceholderPng();
  return new Map([
    ['birth_certificate', pdf('Birth certificate', 'birth-certificate.pdf')],
    ['immunization_card', pdf('Immunization card', 'immunization-card.pdf')],
    ['sea_slip', pdf('SEA placement slip', 'sea-slip.pdf')],
    ['picture', withHash('picture.png', 'image/png', png)],
    ['passport', withHash('passport.png', 'image/png', png)],
    ['student_permit', withHash('student-permit.png', 'image/png', png)],
  ]);
}
