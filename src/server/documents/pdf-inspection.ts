import { constants, inflateSync } from 'node:zlib';
import {
  PDFArray,
  PDFContext,
  PDFDict,
  PDFHexString,
  PDFName,
  PDFObjectParser,
  PDFObjectStreamParser,
  PDFParser,
  PDFRawStream,
  PDFRef,
  PDFStream,
  PDFString,
  type PDFObject,
} from 'pdf-lib';

/**
 * Whether an uploaded PDF may be stored, decided by parsing it (pdf-lib), never by a byte pattern:
 * a pattern cannot tell a name in a dictionary from the same bytes in a comment, a string or a
 * picture. Documents for the school office are pages to read, so anything that acts when the file
 * is opened, or that carries another file, is refused (docs/decisions.md D17):
 *
 * - actions that run code, start programs, read or send data or open other files — JavaScript,
 *   Launch, ImportData, SubmitForm, GoToR, GoToE, Rendition, RichMediaExecute, Sound, Movie —
 *   wherever they are, and any `/JS` or `/JavaScript` entry;
 * - a web address (URI action) that opens by itself: from `/OpenAction` or any `/AA` (additional
 *   actions of the catalog, pages, annotations and fields), followed along `/Next`. A link the
 *   reader clicks (a Link annotation's or bookmark's `/A`) is kept when it is http, https or
 *   mailto: scanned letters and school forms carry such links, and opening one is the reader's
 *   choice;
 * - embedded files (`/EmbeddedFiles`, `/EF`, `/EmbeddedFile`, FileAttachment annotations), XFA
 *   forms (`/XFA`), RichMedia and 3D annotations (players that run scripts of their own);
 * - encrypted files (their objects cannot be read, so they cannot be checked) and files the
 *   parser cannot read.
 *
 * Every indirect object is checked, not only those reachable from the catalog: those the parser
 * reads in order, those inside object streams, and — because a viewer that follows the
 * cross-reference table or repairs a damaged file may find objects an in-order parse skips — every
 * `N G obj` in the bytes parsed on its own (hidden inside another stream's data, or an older copy
 * of an object number).
 */

export type PdfVerdict =
  | { ok: true }
  | { ok: false; reason: 'active' | 'encrypted' | 'unreadable'; detail: string };

/** Actions that are refused wherever they appear, clicked or not. */
const REFUSED_ACTIONS = new Set(['JavaScript', 'Launch', 'ImportData', 'SubmitForm', 'GoToR', 'GoToE', 'Rendition', 'RichMediaExecute', 'Sound', 'Movie']);
/** Entries that hold scripts, attached files or XFA forms, whatever dictionary they are in. */
const REFUSED_KEYS = new Map([
  ['JS', 'a script'],
  ['JavaScript', 'a script'],
  ['EmbeddedFiles', 'an attached file'],
  ['EF', 'an attached file'],
  ['XFA', 'an XFA form'],
]);
const REFUSED_SUBTYPES = new Map([
  ['FileAttachment', 'an attached file'],
  ['RichMedia', 'a media player'],
  ['3D', 'a 3D model with scripts'],
]);
/** Web addresses a clicked link may open. */
const SAFE_LINK = /^(https?:\/\/|mailto:)/i;
/** Deeper nesting than any real document; deeper is refused as unreadable. */
const MAX_DEPTH = 64;
/**
 * An `N G obj` header: where a cross-reference table or a repairing viewer finds an object. PDF's
 * white space includes NUL, and a comment may stand between the tokens, as the parser allows.
 */
const OBJECT_HEADER = /(\d{1,10})(?:[\0\t\n\f\r ]|%[^\r\n]*[\r\n])+(\d{1,5})(?:[\0\t\n\f\r ]|%[^\r\n]*[\r\n])+obj/g;
/** What an object or cross-reference stream may inflate to: they hold dictionaries, not pictures. */
const MAX_STRUCTURE_STREAM_BYTES = 16 * 1024 * 1024;

class Refusal extends Error {
  constructor(readonly verdict: PdfVerdict & { ok: false }) {
    super(verdict.detail);
  }
}

/** A name as a viewer reads it: #xx escapes decoded in either case (pdf-lib decodes upper case only). */
function nameOf(value: PDFObject | undefined): string | undefined {
  if (!(value instanceof PDFName)) return undefined;
  return value.decodeText().replace(/#([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

function textOf(value: PDFObject | undefined): string | undefined {
  if (value instanceof PDFString || value instanceof PDFHexString) return value.decodeText();
  return undefined;
}

const refKey = (ref: PDFRef) => `${ref.objectNumber} ${ref.generationNumber}`;

/** Every version of every indirect object found, by `N G`. */
type ObjectsByRef = Map<string, PDFObject[]>;

function addObject(objects: ObjectsByRef, ref: PDFRef, object: PDFObject): void {
  const list = objects.get(refKey(ref));
  if (list) list.push(object);
  else objects.set(refKey(ref), [object]);
}

/** The objects an in-order parse finds, object streams included; throws when the file is unreadable. */
async function parseInOrder(bytes: Uint8Array): Promise<PDFContext> {
  // throwOnInvalidObject: an object (or object stream) that does not parse is not skipped unseen.
  return PDFParser.forBytesWithOptions(bytes, Number.POSITIVE_INFINITY, true, false).parseDocument();
}

/**
 * The data of a stream the parser itself decodes (object and cross-reference streams), inflated
 * with a hard limit first: a few kilobytes that inflate to gigabytes must cost a bounded amount.
 * Such streams use FlateDecode or no filter; anything else cannot be checked here.
 */
function requireBoundedStream(stream: PDFRawStream): void {
  const filter = stream.dict.get(PDFName.of('Filter'));
  const filters = filter instanceof PDFArray ? filter.asArray() : filter === undefined ? [] : [filter];
  if (filters.length === 0) return;
  if (filters.length > 1 || nameOf(filters[0]) !== 'FlateDecode') {
    throw new Refusal({ ok: false, reason: 'unreadable', detail: 'an object stream with a filter that cannot be checked' });
  }
  try {
    inflateSync(stream.contents, { maxOutputLength: MAX_STRUCTURE_STREAM_BYTES, finishFlush: constants.Z_SYNC_FLUSH });
  } catch {
    throw new Refusal({ ok: false, reason: 'unreadable', detail: 'an object stream that does not inflate, or inflates too far' });
  }
}

/**
 * Every `N G obj` in the bytes parsed on its own, as a viewer following the cross-reference table
 * or repairing the file would find it; what does not parse is no object to a viewer either. The
 * object and cross-reference streams among them are checked to inflate within bounds, and the
 * objects inside each object stream are added.
 */
async function parseEveryHeader(bytes: Uint8Array, objects: ObjectsByRef): Promise<void> {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  for (const match of text.matchAll(OBJECT_HEADER)) {
    const ref = PDFRef.of(Number(match[1]), Number(match[2]));
    // A context of its own: objects in its object stream land there, beside no other version.
    const own = PDFContext.create();
    let object: PDFObject;
    try {
      object = PDFObjectParser.forBytes(bytes.subarray(match.index + match[0].length), own).parseObject();
    } catch {
      continue;
    }
    addObject(objects, ref, object);
    if (!(object instanceof PDFRawStream)) continue;
    const type = nameOf(object.dict.get(PDFName.of('Type')));
    if (type !== 'ObjStm' && type !== 'XRef') continue;
    requireBoundedStream(object);
    if (type === 'XRef') continue;
    try {
      // Async in pdf-lib: awaited, so a stream that does not parse is refused here and never
      // becomes an unhandled rejection on the worker.
      await PDFObjectStreamParser.forStream(object).parseIntoContext();
    } catch {
      throw new Refusal({ ok: false, reason: 'unreadable', detail: 'an object stream that cannot be read' });
    }
    for (const [innerRef, inner] of own.enumerateIndirectObjects()) addObject(objects, innerRef, inner);
  }
}

/** The dictionaries and arrays inside an object (not following references), with their depth. */
function* containersOf(root: PDFObject): Generator<PDFDict | PDFArray> {
  const stack: Array<[PDFObject, number]> = [[root, 0]];
  while (stack.length > 0) {
    const [object, depth] = stack.pop()!;
    if (depth > MAX_DEPTH) throw new Refusal({ ok: false, reason: 'unreadable', detail: 'objects nested deeper than a document needs' });
    const container = object instanceof PDFStream ? object.dict : object;
    if (container instanceof PDFDict) {
      yield container;
      for (const value of container.values()) stack.push([value, depth + 1]);
    } else if (container instanceof PDFArray) {
      yield container;
      for (const value of container.asArray()) stack.push([value, depth + 1]);
    }
  }
}

/** Refuses a dictionary that is, or names, something a document must not carry. */
function checkDictionary(dict: PDFDict): void {
  for (const key of dict.keys()) {
    const name = nameOf(key);
    const what = name === undefined ? undefined : REFUSED_KEYS.get(name);
    if (what) throw new Refusal({ ok: false, reason: 'active', detail: `${what} (/${name})` });
    if (name === 'Encrypt') throw new Refusal({ ok: false, reason: 'encrypted', detail: 'encrypted' });
  }
  const action = nameOf(dict.get(PDFName.of('S')));
  if (action !== undefined && REFUSED_ACTIONS.has(action)) throw new Refusal({ ok: false, reason: 'active', detail: `a /${action} action` });
  if (action === 'URI') {
    const address = textOf(dict.get(PDFName.of('URI'))) ?? '';
    if (!SAFE_LINK.test(address.trim())) throw new Refusal({ ok: false, reason: 'active', detail: 'a link that is not a web or mail address' });
  }
  const type = nameOf(dict.get(PDFName.of('Type')));
  if (type === 'EmbeddedFile') throw new Refusal({ ok: false, reason: 'active', detail: 'an attached file' });
  const subtype = nameOf(dict.get(PDFName.of('Subtype')));
  const what = subtype === undefined ? undefined : REFUSED_SUBTYPES.get(subtype);
  if (what) throw new Refusal({ ok: false, reason: 'active', detail: `${what} (/${subtype})` });
}

/** Every version of what a value names: itself, or each object found under its reference. */
function resolveAll(value: PDFObject | undefined, objects: ObjectsByRef): PDFObject[] {
  if (value === undefined) return [];
  if (value instanceof PDFRef) return objects.get(refKey(value)) ?? [];
  return [value];
}

/**
 * The actions that run without a click — `/OpenAction` and every entry of any `/AA` — and the
 * actions they chain to through `/Next`: a URI among them opens a web address by itself.
 */
function checkAutomaticActions(dicts: readonly PDFDict[], objects: ObjectsByRef): void {
  const pending: PDFObject[] = [];
  for (const dict of dicts) {
    pending.push(...resolveAll(dict.get(PDFName.of('OpenAction')), objects));
    for (const triggers of resolveAll(dict.get(PDFName.of('AA')), objects)) {
      if (triggers instanceof PDFDict) for (const value of triggers.values()) pending.push(...resolveAll(value, objects));
    }
  }
  const seen = new Set<PDFObject>();
  while (pending.length > 0) {
    const action = pending.pop()!;
    if (seen.has(action)) continue;
    seen.add(action);
    if (action instanceof PDFArray) {
      // A /Next array of actions (an /OpenAction array is a destination: its entries are checked too, harmlessly).
      for (const entry of action.asArray()) pending.push(...resolveAll(entry, objects));
      continue;
    }
    if (!(action instanceof PDFDict)) continue;
    if (nameOf(action.get(PDFName.of('S'))) === 'URI') throw new Refusal({ ok: false, reason: 'active', detail: 'a web address that opens by itself' });
    pending.push(...resolveAll(action.get(PDFName.of('Next')), objects));
  }
}

/** The verdict on an uploaded PDF (see above). Runs on a worker thread: a 10 MiB file takes a while. */
export async function inspectPdf(bytes: Uint8Array): Promise<PdfVerdict> {
  const objects: ObjectsByRef = new Map();
  try {
    // First every object on its own, which also bounds the streams the in-order parse inflates.
    await parseEveryHeader(bytes, objects);
  } catch (error) {
    if (error instanceof Refusal) return error.verdict;
    throw error;
  }
  let context: PDFContext;
  try {
    context = await parseInOrder(bytes);
  } catch {
    return { ok: false, reason: 'unreadable', detail: 'the PDF could not be parsed' };
  }
  if (context.trailerInfo.Encrypt !== undefined) return { ok: false, reason: 'encrypted', detail: 'encrypted' };
  try {
    for (const [ref, object] of context.enumerateIndirectObjects()) addObject(objects, ref, object);
    const dicts: PDFDict[] = [];
    for (const versions of objects.values()) {
      for (const object of versions) {
        for (const container of containersOf(object)) {
          if (container instanceof PDFDict) {
            checkDictionary(container);
            dicts.push(container);
          }
        }
      }
    }
    checkAutomaticActions(dicts, objects);
  } catch (error) {
    if (error instanceof Refusal) return error.verdict;
    return { ok: false, reason: 'unreadable', detail: 'the PDF could not be checked' };
  }
  return { ok: true };
}
