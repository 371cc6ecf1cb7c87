import { PassThrough, type Writable } from 'node:stream';
import { MessageChannel } from 'node:worker_threads';
import type { FastifyReply } from 'fastify';
import { assertPoolHasRoom, runInWorker } from '../workers/worker-pool.js';

declare module '../workers/worker-pool.js' {
  interface WorkerTasks {
    /** Writes an office spreadsheet from rows sent through `port` (xlsx-thread-writer.ts `writeSheetFromPort`). */
    'write-xlsx': { request: { layout: SheetLayout; port: import('node:worker_threads').MessagePort }; answer: number };
  }
}

/**
 * The office's spreadsheets (Export Data, Parents Contact, Class Attendance, the call list):
 * written by exceljs's streaming WorkbookWriter on the worker pool's thread
 * (xlsx-thread-writer.ts) while the rows are read here, page by page from the database. Each
 * page's cells go to the thread through a MessagePort, the next page is read when the thread asks
 * for it, and the zip's bytes come back and go straight into the reply: neither the table nor the
 * workbook is ever held, nothing is written to disk, the event loop never lays out a sheet, and
 * exceljs's memory leaves with the thread when it ends idle (docs/performance.md, the export).
 */

export type ColumnKind = 'text' | 'number' | 'date' | 'datetime';

export interface SheetColumn<R> {
  header: string;
  kind: ColumnKind;
  /** Width in characters. */
  width?: number;
  value: (row: R) => string | number | null | undefined;
}

/** A cell as it crosses to the thread: the column's kind says what it becomes there. */
export type RawCell = string | number | null;

/** A sheet's name and columns, without the functions that read a row (plain data for the thread). */
export interface SheetLayout {
  name: string;
  columns: { header: string; kind: ColumnKind; width?: number }[];
}

/** What the main thread sends the writing thread: a page of rows, or the end. */
export type ToThread = { type: 'rows'; rows: RawCell[][] } | { type: 'end' };
/** What the writing thread sends back: a request for the next page, bytes of the file, the end with the row count. */
export type FromThread = { type: 'next' } | { type: 'bytes'; bytes: Uint8Array } | { type: 'done'; rows: number };

/** The media type of an .xlsx file. */
export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** A school-wide export streams for as long as its pages take to read, well past a print's minute. */
const EXPORT_TIME_LIMIT_MS = 10 * 60_000;

/** Rows already in memory, as the one page the workbook writer asks for. */
export async function* onePage<R>(rows: readonly R[]): AsyncGenerator<readonly R[]> {
  yield rows;
}

/**
 * Writes one worksheet on the pool's thread: a bold header row frozen in place, a filter over
 * every column, then the rows of each page as they come. Resolves with the number of data rows
 * once the file's last byte is in `out`. Should `out` be closed early (the client hung up), the
 * pages stop and the thread finishes a short file nobody reads.
 */
export async function writeWorkbook<R>(
  out: Writable,
  sheetName: string,
  columns: readonly SheetColumn<R>[],
  pages: AsyncIterable<readonly R[]>,
): Promise<number> {
  const layout: SheetLayout = {
    name: sheetName,
    columns: columns.map(({ header, kind, width }) => ({ header, kind, ...(width !== undefined ? { width } : {}) })),
  };
  const { port1: here, port2: there } = new MessageChannel();
  let asked = 0;
  let wake: (() => void) | null = null;
  let finished: (rows: number) => void = () => undefined;
  const done = new Promise<number>((resolve) => (finished = resolve));
  here.on('message', (message: FromThread) => {
    if (message.type === 'bytes') {
      if (!out.destroyed) out.write(Buffer.from(message.bytes.buffer, message.bytes.byteOffset, message.bytes.byteLength));
    } else if (message.type === 'next') {
      asked++;
      wake?.();
    } else {
      finished(message.rows);
    }
  });
  // Long work: it holds a thread while every page is read, so it waits for the documents a person is waiting on.
  const task = runInWorker({ kind: 'write-xlsx', layout, port: there }, { transferList: [there], timeLimitMs: EXPORT_TIME_LIMIT_MS, batch: true });
  // A thread that fails answers nothing more on the port: its error ends every wait below.
  const failure = task.then(
    () => new Promise<never>(() => undefined),
    (error: unknown) => {
      throw error;
    },
  );
  // Handled here too: a failure while the next page is being read is met at the next wait.
  failure.catch(() => undefined);
  const askedFor = async () => {
    while (asked === 0) await Promise.race([new Promise<void>((resolve) => (wake = resolve)), failure]);
    asked--;
  };
  try {
    for await (const page of pages) {
      if (out.destroyed) break;
      const rows = page.map((row) => columns.map((column) => column.value(row) ?? null));
      await askedFor();
      here.postMessage({ type: 'rows', rows } satisfies ToThread);
    }
    await askedFor();
    here.postMessage({ type: 'end' } satisfies ToThread);
    const count = await Promise.race([done, failure]);
    await task;
    if (!out.destroyed) out.end();
    return count;
  } finally {
    here.close();
  }
}

/**
 * Sends a workbook as the reply body while it is being written: the reply streams a PassThrough
 * the writer fills. A failure after the headers went out can only cut the download short (the
 * browser reports it failed); it is logged, and the partial file is never a valid workbook.
 */
export function sendWorkbook(
  reply: FastifyReply,
  fileName: string,
  write: (out: PassThrough) => Promise<unknown>,
): FastifyReply {
  // Refused before the headers go out: a busy pool's 503 is an answer, not a broken download.
  assertPoolHasRoom();
  const body = new PassThrough();
  write(body).catch((error: unknown) => {
    reply.log.error({ err: error }, 'spreadsheet export failed while streaming');
    body.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  const ascii = fileName.replace(/[^\w .()-]/g, '_');
  return reply
    .header('content-type', XLSX_MIME)
    .header('content-disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`)
    .header('cache-control', 'private, no-store')
    .header('x-content-type-options', 'nosniff')
    .send(body);
}
