import { getDocument, GlobalWorkerOptions, VerbosityLevel } from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';

/**
 * pdf.js, loaded only when a PDF is drawn as page images (pdf-view.tsx imports this module
 * lazily, so neither pdf.js nor its worker is in the sign-in page's bundle, D45). The worker is a
 * file of our own origin, which the CSP's script-src 'self' already allows; nothing is evaluated
 * from strings (isEvalSupported: false).
 */
GlobalWorkerOptions.workerSrc = workerUrl;

/** One drawn page: a PNG's object URL (the caller revokes it) and its size in pixels. */
export interface PageImage {
  src: string;
  width: number;
  height: number;
}

function canvasToPng(canvas: HTMLCanvasElement): Promise<Blob> {
  return new Promise((resolve, reject) => {
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('The page could not be drawn.'))), 'image/png');
  });
}

/**
 * Draws every page of a PDF, in order, `pixelWidth` pixels wide, and hands each to `onPage` as
 * soon as it is ready, so the first page shows while the rest are drawn. Each page goes through
 * one canvas that is emptied afterwards: a 40-page class report keeps 40 PNGs, not 40 canvases.
 */
export async function drawPdfPages(
  bytes: ArrayBuffer,
  pixelWidth: number,
  signal: AbortSignal,
  onPage: (page: PageImage, pageCount: number) => void,
): Promise<void> {
  const task = getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, verbosity: VerbosityLevel.ERRORS });
  const stop = () => void task.destroy();
  signal.addEventListener('abort', stop);
  try {
    const pdf = await task.promise;
    for (let pageNumber = 1; pageNumber <= pdf.numPages && !signal.aborted; pageNumber += 1) {
      const page = await pdf.getPage(pageNumber);
      const viewport = page.getViewport({ scale: pixelWidth / page.getViewport({ scale: 1 }).width });
      const canvas = document.createElement('canvas');
      canvas.width = Math.round(viewport.width);
      canvas.height = Math.round(viewport.height);
      const canvasContext = canvas.getContext('2d');
      if (!canvasContext) throw new Error('This browser cannot draw the page.');
      await page.render({ canvasContext, viewport }).promise;
      page.cleanup();
      const png = await canvasToPng(canvas);
      const size = { width: canvas.width, height: canvas.height };
      canvas.width = 0;
      canvas.height = 0;
      if (signal.aborted) return;
      onPage({ src: URL.createObjectURL(png), ...size }, pdf.numPages);
    }
  } finally {
    signal.removeEventListener('abort', stop);
    await task.destroy();
  }
}
