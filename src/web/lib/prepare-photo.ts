import { fitWithin, PHOTO_MAX_SIDE_PX } from '../../shared/documents.schemas.js';

/**
 * Makes a photo small before it leaves the phone (docs/decisions.md D74): a 12-megapixel camera
 * shot of 5 MB becomes a 2,000-pixel JPEG of a few hundred kilobytes, which uploads in seconds on
 * a phone's connection. The browser turns it upright by its orientation tag while decoding it
 * (`imageOrientation: 'from-image'`), so what is drawn is what the parent saw.
 *
 * A PDF, a JPEG or PNG already within the bound, and anything the browser cannot decode go as
 * they are: the server decides what the bytes are and scales again whatever is bigger.
 */

const JPEG_QUALITY = 0.85;

function toBlob(canvas: HTMLCanvasElement, type: string): Promise<Blob | null> {
  return new Promise((resolve) => canvas.toBlob(resolve, type, JPEG_QUALITY));
}

/** The file to upload for the one chosen: a scaled copy of a big photo, or the file itself. */
export async function preparePhoto(file: File): Promise<File> {
  if (!file.type.startsWith('image/') || typeof createImageBitmap !== 'function') return file;
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch {
    return file;
  }
  try {
    const size = fitWithin(bitmap.width, bitmap.height, PHOTO_MAX_SIDE_PX);
    const kept = file.type === 'image/jpeg' || file.type === 'image/png';
    if (kept && size.width === bitmap.width && size.height === bitmap.height) return file;
    const canvas = document.createElement('canvas');
    canvas.width = size.width;
    canvas.height = size.height;
    const context = canvas.getContext('2d');
    if (!context) return file;
    context.imageSmoothingQuality = 'high';
    context.drawImage(bitmap, 0, 0, size.width, size.height);
    // A PNG (a screenshot, a scan of text) stays sharp as a PNG; a camera's photo becomes a JPEG.
    const type = file.type === 'image/png' ? 'image/png' : 'image/jpeg';
    const blob = await toBlob(canvas, type);
    canvas.width = 0;
    canvas.height = 0;
    if (!blob) return file;
    const base = file.name.replace(/\.[A-Za-z0-9]{1,5}$/, '') || 'photo';
    return new File([blob], `${base}.${type === 'image/png' ? 'png' : 'jpg'}`, { type, lastModified: file.lastModified });
  } finally {
    bitmap.close();
  }
}
