import { constants, inflateSync } from 'node:zlib';
import type { DocumentKind } from '../../shared/documents.schemas.js';

/**
 * What an uploaded file really is, decided from its bytes (magic numbers), never from its name
 * or the browser's Content-Type (OWASP File Upload cheat sheet: "validate the file type, don't
 * trust the Content-Type header"). Everything that is not a PDF, PNG or JPEG is refused, so an
 * executable, ZIP, HTML or SVG renamed to .pdf or .png never gets stored.
 */

const PDF_MAGIC = Buffer.from('%PDF-', 'latin1');
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const PNG_IHDR = Buffer.from('IHDR', 'latin1');
const JPEG_MAGIC = Buffer.from([0xff, 0xd8, 0xff]);

/** The kind of file the bytes are, or null for anything else. */
export function detectKind(bytes: Buffer): DocumentKind | null {
  // A PDF must start with its header: a polyglot with HTML in front is not a PDF here.
  if (bytes.length >= 8 && bytes.subarray(0, PDF_MAGIC.length).equals(PDF_MAGIC)) return 'pdf';
  // PNG: the signature, then the IHDR chunk the format requires first.
  if (bytes.length >= 33 && bytes.subarray(0, 8).equals(PNG_MAGIC) && bytes.subarray(12, 16).equals(PNG_IHDR)) return 'png';
  // JPEG: SOI followed by a marker.
  if (bytes.length >= 4 && bytes.subarray(0, 3).equals(JPEG_MAGIC)) return 'jpeg';
  return null;
}

/**
 * Names that make a PDF do something when opened: scripts (/JS, /JavaScript) and launching
 * programs (/Launch). Documents for the school office are pages to read; such a PDF is refused.
 */
const ACTIVE_PDF_NAMES = new Set(['JS', 'JavaScript', 'Launch']);
/** A PDF name token: '/' then regular characters (PDF 32000-1 §7.3.5), #xx escapes allowed. */
const PDF_NAME = /\/([^\s/<>[\]()%{}]+)/g;
/** The start of every stream's data; its dictionary comes just before. */
const STREAM_START = /\bstream\r?\n/g;
/** An object stream holds dictionaries, not pictures: anything bigger than this is refused. */
const MAX_OBJECT_STREAM_BYTES = 16 * 1024 * 1024;

function decodeName(raw: string): string {
  return raw.replace(/#([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

function hasActiveName(text: string): boolean {
  for (const match of text.matchAll(PDF_NAME)) {
    if (ACTIVE_PDF_NAMES.has(decodeName(match[1] ?? ''))) return true;
  }
  return false;
}

/** The data of one stream: where it starts and ends in the file, and its dictionary's text. */
interface PdfStream {
  dictionary: string;
  start: number;
  end: number;
}

/**
 * Splits a PDF into its structure (objects, dictionaries, trailer: where actions are named) and
 * its streams (page contents, pictures, fonts). Names are looked for only in the structure, so a
 * scanned page whose compressed bytes happen to spell "/JS" is not mistaken for a script.
 */
function splitPdf(text: string): { structure: string; streams: PdfStream[] } {
  const streams: PdfStream[] = [];
  const parts: string[] = [];
  let position = 0;
  const starts = new RegExp(STREAM_START.source, 'g');
  for (;;) {
    starts.lastIndex = position;
    const match = starts.exec(text);
    if (!match) break;
    const start = match.index + match[0].length;
    const found = text.indexOf('endstream', start);
    const end = found < 0 ? text.length : found;
    const dictionaryFrom = Math.max(text.lastIndexOf('obj', match.index), match.index - 2000, position);
    parts.push(text.slice(position, match.index));
    streams.push({ dictionary: text.slice(dictionaryFrom, match.index), start, end });
    position = end;
  }
  parts.push(text.slice(position));
  return { structure: parts.join('\n'), streams };
}

/**
 * Whether a PDF can run code or hides its structure: an active name in its objects or in any
 * compressed object stream (names written with #xx escapes are decoded first), or an encrypted
 * file (its object streams cannot be read, so it cannot be checked). An object stream that does
 * not inflate, uses another filter, or inflates past 16 MB counts as unsafe too.
 */
export function isUnsafePdf(bytes: Buffer): boolean {
  const { structure, streams } = splitPdf(bytes.toString('latin1'));
  if (hasActiveName(structure)) return true;
  if (/\/Encrypt[\s/<\d]/.test(structure)) return true;
  for (const stream of streams) {
    if (!/\/Type\s*\/ObjStm\b/.test(stream.dictionary)) continue;
    const filter = /\/Filter\s*(\[[^\]]*\]|\/\w+)/.exec(stream.dictionary)?.[1];
    const data = bytes.subarray(stream.start, stream.end);
    let inflated: Buffer;
    if (filter === undefined) inflated = data;
    else if (filter.replace(/[[\]\s]/g, '') !== '/FlateDecode') return true;
    else {
      try {
        inflated = inflateSync(data, { maxOutputLength: MAX_OBJECT_STREAM_BYTES, finishFlush: constants.Z_SYNC_FLUSH });
      } catch {
        return true;
      }
    }
    if (hasActiveName(inflated.toString('latin1'))) return true;
  }
  return false;
}
