import { createRequire } from 'node:module';
import { PassThrough } from 'node:stream';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { closeWorkerPool, MAX_QUEUED, POOL_THREADS } from '../workers/worker-pool.js';
import { sendWorkbook, writeWorkbook, type SheetColumn } from './xlsx-writer.js';

/**
 * The office's spreadsheets are written on the pool's thread (xlsx-writer.ts): the rows go over a
 * page at a time, the file comes back whole and in order, a download the client abandons ends the
 * work, and the main thread never loads exceljs (its memory leaves with the idle thread).
 */

interface Row {
  id: string;
  name: string;
  born: string | null;
  count: number;
}

const COLUMNS: SheetColumn<Row>[] = [
  { header: 'Student ID', kind: 'text', value: (row) => row.id },
  { header: 'Name', kind: 'text', value: (row) => row.name },
  { header: 'Born', kind: 'date', value: (row) => row.born },
  { header: 'Count', kind: 'number', value: (row) => row.count },
];

const rowsOf = (page: number, size: number): Row[] =>
  Array.from({ length: size }, (_, i) => ({ id: `2026${String(page * size + i).padStart(4, '0')}`, name: i === 0 ? '=HYPERLINK("x")' : `Student ${page}.${i}`, born: i % 2 ? '2012-07-21' : null, count: i }));

async function* pages(count: number, size: number, seen?: number[]): AsyncGenerator<Row[]> {
  for (let page = 0; page < count; page++) {
    seen?.push(page);
    yield rowsOf(page, size);
  }
}

/** Whether the main thread has loaded exceljs (a CommonJS package: it is in the require cache once loaded). */
const excelJsLoadedHere = () => Object.keys(createRequire(import.meta.url).cache).some((file) => file.includes('/node_modules/exceljs/'));

async function collect(out: PassThrough): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of out) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

afterAll(closeWorkerPool);

describe('writeWorkbook', () => {
  it('writes every page in order on the pool thread, without loading exceljs here', async () => {
    const out = new PassThrough();
    const body = collect(out);
    const count = await writeWorkbook(out, 'Registration Data', COLUMNS, pages(5, 200));
    expect(count).toBe(1_000);
    expect(excelJsLoadedHere()).toBe(false);

    const { readWorkbook } = await import('../../../tests/support/workbook.js');
    const { headers, rows, sheet } = await readWorkbook(await body);
    // The check above can fail: reading the file back loads exceljs here.
    expect(excelJsLoadedHere()).toBe(true);
    expect(sheet.name).toBe('Registration Data');
    expect(headers).toEqual(['Student ID', 'Name', 'Born', 'Count']);
    expect(rows).toHaveLength(1_000);
    expect(rows.map((row) => row['Student ID'])).toEqual([...Array(5).keys()].flatMap((page) => rowsOf(page, 200).map((row) => row.id)));
    expect(rows[1]).toMatchObject({ Born: new Date('2012-07-21T00:00:00Z'), Count: 1 });
    // Text that looks like a formula stays text.
    expect(rows[0]!.Name).toBe("'=HYPERLINK(\"x\")");
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
  });

  it('reads a page only when the thread asks for it, and stops reading when the download is abandoned', async () => {
    const out = new PassThrough();
    const seen: number[] = [];
    out.once('data', () => out.destroy());
    const count = await writeWorkbook(out, 'Call List', COLUMNS, pages(1_000, 50, seen));
    expect(out.destroyed).toBe(true);
    // The first bytes arrive while the first pages are written: far from all 1,000 were read.
    expect(seen.length).toBeLessThan(1_000);
    expect(count % 50).toBe(0);
    expect(count).toBeLessThanOrEqual(seen.length * 50);

    // The thread is free again: the next spreadsheet is written whole.
    const next = new PassThrough();
    const body = collect(next);
    expect(await writeWorkbook(next, 'Again', COLUMNS, pages(1, 3))).toBe(3);
    expect((await body).length).toBeGreaterThan(0);
  });

  it('answers 503 before any byte when the pool can take no more work, and writes again once it can', async () => {
    // Every thread busy and every place in the queue taken, by spreadsheets waiting on their first page.
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    async function* held(): AsyncGenerator<Row[]> {
      await gate;
      yield rowsOf(0, 2);
    }
    const holding = Array.from({ length: POOL_THREADS + MAX_QUEUED }, () => {
      const out = new PassThrough();
      out.resume();
      return writeWorkbook(out, 'Held', COLUMNS, held());
    });
    const app = Fastify();
    app.get('/export', (_request, reply) => sendWorkbook(reply, 'Export.xlsx', (out) => writeWorkbook(out, 'Export', COLUMNS, pages(1, 2))));
    const busy = await app.inject({ method: 'GET', url: '/export' });
    expect(busy.statusCode).toBe(503);
    expect(busy.headers['content-type']).not.toContain('spreadsheetml');
    expect(busy.headers['retry-after']).toBe('30');

    release();
    expect(await Promise.all(holding)).toEqual(holding.map(() => 2));
    const answer = await app.inject({ method: 'GET', url: '/export' });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toContain('spreadsheetml');
    expect(answer.rawPayload.subarray(0, 2).toString()).toBe('PK');
    await app.close();
  });
});
