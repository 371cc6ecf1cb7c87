import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { PAGE_SIZES } from '../pdf/printout.js';
import { schoolHeader } from '../pdf/pieces.js';
import { renderPdf } from '../pdf/render-on-pool.js';
import { writeWorkbook, type SheetColumn } from '../spreadsheets/xlsx-writer.js';
import { closeWorkerPool, MAX_QUEUED, POOL_THREADS, runInWorker, WorkerTaskFailed } from './worker-pool.js';

/**
 * The pool's queue (worker-pool.ts): a document a person is waiting on runs before the pieces of
 * long work asked before it, the queue is bounded, and a task past its time limit while still
 * waiting fails as a timeout without ever taking a thread.
 */

const COLUMNS: SheetColumn<{ id: string }>[] = [{ header: 'Student ID', kind: 'text', value: (row) => row.id }];

/** A spreadsheet export (long work) that holds its thread until `release` is called. */
function heldExport(): { done: Promise<number>; release: () => void } {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  async function* rows(): AsyncGenerator<{ id: string }[]> {
    await gate;
    yield [{ id: '20260001' }];
  }
  const out = new PassThrough();
  out.resume();
  return { done: writeWorkbook(out, 'Held', COLUMNS, rows()), release };
}

const smallPrintout = (title: string) => ({ pageSize: PAGE_SIZES.letter, content: [schoolHeader('Test School', title)] });

describe('the worker pool', () => {
  afterAll(() => closeWorkerPool());

  it("runs a person's document before the long work asked before it", async () => {
    // Every thread busy with an export waiting on its rows.
    const holding = Array.from({ length: POOL_THREADS }, heldExport);
    const finished: string[] = [];
    // Asked first: a piece of a class's report cards; then one family's report card.
    const piece = renderPdf(smallPrintout('Piece of a class'), { batch: true }).then(() => finished.push('piece'));
    const card = renderPdf(smallPrintout('One report card')).then(() => finished.push('card'));
    // One thread comes free: the card takes it, the piece waits for the next.
    holding[0]!.release();
    await card;
    expect(finished).toEqual(['card']);
    for (const held of holding) held.release();
    await Promise.all([piece, ...holding.map((held) => held.done)]);
    expect(finished).toEqual(['card', 'piece']);
  });

  it('refuses with 503 past MAX_QUEUED waiting tasks, and a task past its limit while waiting fails as a timeout', async () => {
    const holding = Array.from({ length: POOL_THREADS }, heldExport);
    const queued = Array.from({ length: MAX_QUEUED }, (_, i) => renderPdf(smallPrintout(`Waiting ${i}`)));
    await expect(renderPdf(smallPrintout('One too many'))).rejects.toMatchObject({ statusCode: 503 });
    for (const held of holding) held.release();
    await Promise.all([...queued, ...holding.map((held) => held.done)]);

    const stillHolding = Array.from({ length: POOL_THREADS }, heldExport);
    const late = runInWorker({ kind: 'render-pdf', printout: smallPrintout('Too late') }, { timeLimitMs: 50 });
    const failure = await late.then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(WorkerTaskFailed);
    expect((failure as WorkerTaskFailed).reason).toBe('timeout');
    for (const held of stillHolding) held.release();
    await Promise.all(stillHolding.map((held) => held.done));
  });
});
