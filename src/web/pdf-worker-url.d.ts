/** Vite's `?url` import: the built address of pdf.js's worker, loaded only with the page images (D45). */
declare module 'pdfjs-dist/build/pdf.worker.min.mjs?url' {
  const url: string;
  export default url;
}
