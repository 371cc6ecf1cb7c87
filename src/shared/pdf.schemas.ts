import { z } from 'zod';

/**
 * How every PDF of the portal is asked for (docs/requirements.md R15, the PDFs shown by address): shown in the page
 * (inline, the default) or saved as a file with its name (`?download=1`, the "Download PDF"
 * action, D45). One schema for every PDF route, one helper for every address.
 */

/** `download=1` answers with `Content-Disposition: attachment`; absent or `0`, inline. */
export const PdfQuerySchema = z.object({
  download: z.enum(['0', '1'], { message: 'download must be 1 (save the PDF) or 0 (show it).' }).optional(),
});
export type PdfQuery = z.infer<typeof PdfQuerySchema>;

/** The Content-Disposition type a PDF route answers with for its query. */
export function pdfDisposition(query: PdfQuery): 'inline' | 'attachment' {
  return query.download === '1' ? 'attachment' : 'inline';
}

/** The same PDF's address, asking for it as a download (keeps any query the address has). */
export function pdfDownloadUrl(url: string): string {
  const [path, query = ''] = url.split('?', 2) as [string, string?];
  const params = new URLSearchParams(query);
  params.set('download', '1');
  return `${path}?${params.toString()}`;
}
