import { crc32, deflateRawSync } from 'node:zlib';

/**
 * Hand-built XLSX files for the import limits (docs/security.md): the tiny file
 * whose cells at XFD1 and A1048576 once took the server to its heap limit, zip bombs that lie
 * about their sizes or tell the truth, and a large legal workbook. Built byte by byte (a minimal
 * zip writer below), so no library's idea of a sensible file gets in the way of a hostile one.
 */

interface ZipEntry {
  name: string;
  data: Buffer;
  /** The size the headers declare; the real one unless a test lies. */
  declaredSize?: number;
}

const deflated = new WeakMap<Buffer, Buffer>();

export function zipOf(entries: readonly ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    let compressed = deflated.get(entry.data);
    if (!compressed) deflated.set(entry.data, (compressed = deflateRawSync(entry.data, { level: 9 })));
    const size = entry.declaredSize ?? entry.data.length;
    const crc = crc32(entry.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(compressed.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(compressed.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, compressed);
    centrals.push(central, name);
    offset += local.length + name.length + compressed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`;
const ROOT_RELS = `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`;
const WORKBOOK = `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`;
const WORKBOOK_RELS = `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`;

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A cell with an inline string (no shared-strings part needed). */
export const textCell = (ref: string, text: string) => `<c r="${ref}" t="inlineStr"><is><t>${escapeXml(text)}</t></is></c>`;

/** A one-sheet workbook whose sheet XML is `sheetData` (the rows); `sheetSize` may lie about its size. */
export function workbookOf(sheetData: string | Buffer, options: { sheetDeclaredSize?: number } = {}): Buffer {
  const sheet = Buffer.isBuffer(sheetData)
    ? sheetData
    : Buffer.from(`<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${sheetData}</sheetData></worksheet>`);
  return zipOf([
    { name: '[Content_Types].xml', data: Buffer.from(CONTENT_TYPES) },
    { name: '_rels/.rels', data: Buffer.from(ROOT_RELS) },
    { name: 'xl/workbook.xml', data: Buffer.from(WORKBOOK) },
    { name: 'xl/_rels/workbook.xml.rels', data: Buffer.from(WORKBOOK_RELS) },
    { name: 'xl/worksheets/sheet1.xml', data: sheet, declaredSize: options.sheetDeclaredSize },
  ]);
}

/**
 * The attendance import's headings, with one more value at XFD1 (the last column Excel has) and a
 * scan at A1048576 (its last row): about 1.5 kB.
 */
export function farCornersXlsx(): Buffer {
  return workbookOf(
    `<row r="1">${textCell('A1', 'student_id')}${textCell('B1', 'date')}${textCell('C1', 'time')}${textCell('XFD1', 'note')}</row>` +
      `<row r="1048576">${textCell('A1048576', '20220001')}${textCell('B1048576', '2026-10-01')}${textCell('C1048576', '07:30')}</row>`,
  );
}

/** A sheet of `megabytes` MiB of empty rows, deflated to a few hundred kilobytes. */
function bulkyRows(megabytes: number): Buffer {
  const head = Buffer.from('<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>');
  const tail = Buffer.from('</sheetData></worksheet>');
  const row = '<row/>';
  return Buffer.concat([head, Buffer.from(row.repeat(Math.ceil((megabytes * 1024 * 1024) / row.length))), tail]);
}

let bulk: Buffer | undefined;
/** 100 MiB of sheet: more than any import may open (64 MiB). Made once per test file. */
const bombSheet = () => (bulk ??= bulkyRows(100));

/** A zip bomb that declares its true size: 100 MiB of sheet in well under a megabyte. */
export function honestZipBomb(): Buffer {
  return workbookOf(bombSheet());
}

/** The same bomb declaring a sheet of 1 kB: only inflating it shows what it is. */
export function lyingZipBomb(): Buffer {
  return workbookOf(bombSheet(), { sheetDeclaredSize: 1024 });
}

/**
 * A large legal students file: `rows` students with the Student ID, names and date of birth, and
 * `extraColumns` columns the import does not know, full of text — about 60 MB of sheet XML in a
 * file of a few MB, like the office's exports with everything in them.
 */
export function largeStudentsXlsx(rows = 5_000, extraColumns = 100): Buffer {
  const columnName = (index: number) => {
    let name = '';
    for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
    return name;
  };
  const known = ['Student ID', 'First Name', 'Last Name', 'Date of Birth'];
  const headings = [...known, ...Array.from({ length: extraColumns }, (_, i) => `Office note ${i + 1}`)];
  const parts: string[] = [`<row r="1">${headings.map((h, c) => textCell(`${columnName(c)}1`, h)).join('')}</row>`];
  for (let r = 0; r < rows; r++) {
    const n = r + 2;
    const values = [`T${String(900000 + r)}`, `First${r}`, `Last${r}`, '2013-05-04'];
    for (let c = 0; c < extraColumns; c++) values.push(`Note ${r}-${c}: collected at the office, checked against the birth certificate.`);
    parts.push(`<row r="${n}">${values.map((v, c) => textCell(`${columnName(c)}${n}`, v)).join('')}</row>`);
  }
  return workbookOf(parts.join(''));
}
