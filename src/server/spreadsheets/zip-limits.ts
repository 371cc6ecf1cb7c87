import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import yauzl from 'yauzl';
import { tooLargeWhenOpened, unreadable } from './sheet-limits.js';

/** An XLSX's zip, its parts inflated under the budget of sheet-reader.ts. */

export interface Zip {
  entries: Map<string, yauzl.Entry>;
  file: yauzl.ZipFile;
}

/** The zip's directory (yauzl): names and declared sizes, nothing inflated yet. */
export function openZip(buffer: Buffer): Promise<Zip> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true, validateEntrySizes: true, strictFileNames: false }, (error, file) => {
      if (error || !file) return reject(unreadable());
      const entries = new Map<string, yauzl.Entry>();
      file.on('entry', (entry: yauzl.Entry) => {
        if (entries.size >= 10_000) return reject(unreadable());
        entries.set(entry.fileName.replace(/^\/+/, ''), entry);
        file.readEntry();
      });
      file.on('end', () => resolve({ entries, file }));
      file.on('error', () => reject(unreadable()));
      file.readEntry();
    });
  });
}

/** The inflated text of one entry, fed to `onText` as it inflates; the budget is spent as it comes. */
export function streamEntry(zip: Zip, entry: yauzl.Entry, budget: { left: number }, onText: (text: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    if (entry.isEncrypted()) return reject(unreadable());
    zip.file.openReadStream(entry, (error, stream: Readable) => {
      if (error || !stream) return reject(unreadable());
      const decoder = new StringDecoder('utf8');
      let failed = false;
      const fail = (refusal: Error) => {
        if (failed) return;
        failed = true;
        stream.destroy();
        reject(refusal);
      };
      stream.on('data', (chunk: Buffer) => {
        budget.left -= chunk.length;
        if (budget.left < 0) return fail(tooLargeWhenOpened());
        try {
          onText(decoder.write(chunk));
        } catch (refusal) {
          fail(refusal instanceof Error ? refusal : unreadable());
        }
      });
      stream.on('error', (streamError: Error) => fail(/too many bytes|inflate|size/i.test(streamError.message) ? tooLargeWhenOpened() : unreadable()));
      stream.on('end', () => {
        if (failed) return;
        try {
          onText(decoder.end());
          resolve();
        } catch (refusal) {
          fail(refusal instanceof Error ? refusal : unreadable());
        }
      });
    });
  });
}
