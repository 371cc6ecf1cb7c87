import type SharpModule from 'sharp';
import { PHOTO_MAX_INPUT_PIXELS, PHOTO_MAX_SIDE_PX, THUMBNAIL_MAX_SIDE_PX, type DocumentKind } from '../../shared/documents.schemas.js';

/**
 * Uploaded photos and their thumbnails, through sharp (libvips), which decodes and encodes on its
 * own threads, off the event loop (docs/decisions.md D74).
 *
 * The server does not trust the browser's scaling: every photo is decoded here, turned upright
 * by its orientation tag, scaled to PHOTO_MAX_SIDE_PX on its longest side when it is bigger, and
 * encoded again as the kind it came as. Encoding again also drops what the camera wrote beside the
 * picture (where it was taken, the phone's make) and anything appended after the picture: nothing
 * but pixels is stored.
 */

export type PhotoProblem = 'unreadable' | 'too-large';

export type PhotoResult = { ok: true; bytes: Buffer } | { ok: false; reason: PhotoProblem };

/** sharp's format names for the kinds of photo a slot takes. */
const SHARP_FORMAT: Record<Exclude<DocumentKind, 'pdf'>, string> = { jpeg: 'jpeg', png: 'png' };

/**
 * sharp and libvips, loaded with the first photo: about 11 MB a process that never sees one (most
 * days, most processes) does not hold (docs/performance.md, at-rest). libvips' operation cache is
 * off: every upload is a new picture, so nothing in it is ever used again, and what it held stayed
 * with the process (docs/performance.md, registration-day).
 */
let loaded: Promise<typeof SharpModule> | undefined;
function loadSharp(): Promise<typeof SharpModule> {
  loaded ??= import('sharp').then((module) => {
    module.default.cache(false);
    return module.default;
  });
  return loaded;
}

const JPEG_QUALITY = 85;
const THUMBNAIL_QUALITY = 75;

async function open(bytes: Buffer) {
  const sharp = await loadSharp();
  // failOn 'error': a picture cut short or corrupt is refused, not stored half grey.
  return sharp(bytes, { limitInputPixels: PHOTO_MAX_INPUT_PIXELS, failOn: 'error', autoOrient: true });
}

/**
 * A photo as it is stored: upright, within the bound, encoded again as `kind`, no metadata. A
 * file that is not that kind when decoded, or does not decode, is `unreadable`; one whose header
 * claims more than PHOTO_MAX_INPUT_PIXELS is `too-large` before any pixel is decoded.
 */
export async function normalisePhoto(bytes: Buffer, kind: Exclude<DocumentKind, 'pdf'>): Promise<PhotoResult> {
  let width: number | undefined;
  let height: number | undefined;
  try {
    // The header only: no pixel is decoded to read the size.
    const sharp = await loadSharp();
    const metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
    if (metadata.format !== SHARP_FORMAT[kind]) return { ok: false, reason: 'unreadable' };
    ({ width, height } = metadata);
  } catch {
    return { ok: false, reason: 'unreadable' };
  }
  if (!width || !height) return { ok: false, reason: 'unreadable' };
  if (width * height > PHOTO_MAX_INPUT_PIXELS) return { ok: false, reason: 'too-large' };
  try {
    const image = (await open(bytes)).resize({ width: PHOTO_MAX_SIDE_PX, height: PHOTO_MAX_SIDE_PX, fit: 'inside', withoutEnlargement: true });
    const encoded = kind === 'jpeg' ? image.jpeg({ quality: JPEG_QUALITY, mozjpeg: true }) : image.png({ compressionLevel: 9 });
    return { ok: true, bytes: await encoded.toBuffer() };
  } catch {
    return { ok: false, reason: 'unreadable' };
  }
}

/** The thumbnail of a stored photo: a small JPEG, upright, on white where the photo was transparent. */
export async function makeThumbnail(bytes: Buffer): Promise<Buffer> {
  return (await open(bytes))
    .resize({ width: THUMBNAIL_MAX_SIDE_PX, height: THUMBNAIL_MAX_SIDE_PX, fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: THUMBNAIL_QUALITY, mozjpeg: true })
    .toBuffer();
}

/** The MIME type thumbnails are served as. */
export const THUMBNAIL_MIME = 'image/jpeg';
