import { move } from 'piscina';
import type { TaskAnswer, TaskKind, TaskRequest } from './workers/worker-pool.js';

/**
 * What the worker pool's threads do (workers/worker-pool.ts): the thread's entry, one kind of task
 * each. It composes, as app.ts does for the routes: the pool and pdf/ know no feature, and this
 * file hands each kind to the module that does it, and the features' section layouts to the
 * printer (D87). Inputs and answers are plain data (structured clone); PDF bytes come back
 * transferred, not copied. Each kind loads its libraries on first use, so a thread that only
 * prints never loads the PDF parser, and one that only reads spreadsheets never loads pdfmake.
 */

/** Bytes to hand back without a copy: the view must own its whole buffer to be transferred. */
function transferable(bytes: Uint8Array): Uint8Array {
  const owned = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes);
  return move(owned) as Uint8Array;
}

const TASKS: { [K in TaskKind]: (task: TaskRequest<K>) => Promise<TaskAnswer<K>> } = {
  'render-pdf': async (task) => {
    const { printPdf } = await import('./pdf/thread-printer.js');
    return transferable(await printPdf(task.printout));
  },
  'render-pdf-part': async (task) => {
    const [{ printPart }, { reportSectionContent }] = await Promise.all([import('./pdf/thread-printer.js'), import('./students/report-sections.js')]);
    return transferable(await printPart(task.frame, task.sections, reportSectionContent));
  },
  'join-pdfs': async (task) => {
    const { joinPdfParts } = await import('./pdf/join-parts.js');
    return transferable(await joinPdfParts(task.frame, task.parts));
  },
  'inspect-pdf': async (task) => {
    const { inspectPdf } = await import('./documents/pdf-inspection.js');
    return inspectPdf(task.bytes);
  },
  'write-xlsx': async (task) => {
    const { writeSheetFromPort } = await import('./spreadsheets/xlsx-thread-writer.js');
    return writeSheetFromPort(task.port, task.layout);
  },
  'read-spreadsheet': async (task) => {
    const { readSheet } = await import('./spreadsheets/sheet-reader.js');
    return readSheet(task.bytes, task.request);
  },
};

export default async function runTask<K extends TaskKind>(task: TaskRequest<K>): Promise<TaskAnswer<K>> {
  const run = TASKS[task.kind] as (task: TaskRequest<K>) => Promise<TaskAnswer<K>>;
  return run(task);
}
