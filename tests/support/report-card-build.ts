import yauzl from 'yauzl';
import { ReportCardBuildEventSchema, type ReportCardBuildEvent } from '../../src/shared/term-reports.schemas.js';

/** A report-day answer read back (D59): every line parsed by the shared schema, and the file it carried. */
export function readCardBuild(body: string): { events: ReportCardBuildEvent[]; file: Buffer } {
  const events = body
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => ReportCardBuildEventSchema.parse(JSON.parse(line)));
  const file = Buffer.concat(events.flatMap((event) => (event.type === 'data' ? [Buffer.from(event.base64, 'base64')] : [])));
  return { events, file };
}

/** The entries of a zip, name and bytes, in the zip's order. */
export function readZip(bytes: Buffer): Promise<{ name: string; bytes: Buffer }[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error ?? new Error('not a zip'));
      const entries: { name: string; bytes: Buffer }[] = [];
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (openError, stream) => {
          if (openError || !stream) return reject(openError ?? new Error('unreadable entry'));
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            entries.push({ name: entry.fileName, bytes: Buffer.concat(chunks) });
            zip.readEntry();
          });
          stream.on('error', reject);
        });
      });
      zip.on('end', () => resolve(entries));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}
