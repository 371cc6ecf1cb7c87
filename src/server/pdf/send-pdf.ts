// What sends a finished PDF as the response, with the headers every printout gets.
import type { FastifyReply } from 'fastify';

/** Sends PDF bytes to be shown in a frame (inline) or saved (attachment), never cached by proxies. */
export function sendPdf(reply: FastifyReply, bytes: Buffer, fileName: string, disposition: 'inline' | 'attachment' = 'inline') {
  const safeName = fileName.replace(/[^\w .()-]/g, '_');
  return reply
    .header('content-type', 'application/pdf')
    .header('content-disposition', `${disposition}; filename="${safeName}"`)
    .header('cache-control', 'private, no-store')
    .header('x-content-type-options', 'nosniff')
    .send(bytes);
}
