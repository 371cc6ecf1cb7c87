import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { CompiledQuery } from 'kysely';
import { sqliteFileOf, type Db } from './database.js';

/**
 * Reads that may take long — the audit log's scans for one student (docs/performance.md,
 * autosave) — run off the event loop. better-sqlite3 answers on the thread that asks, so a
 * 100 ms scan on the server's own connection would hold every request in flight for 100 ms; here
 * it runs in a worker thread on a read-only connection of its own to the same file, which WAL
 * lets read beside the writer (it sees what was committed when it starts). PostgreSQL's queries
 * never block the event loop, and an in-memory SQLite database has no file to share: both run
 * the query as usual.
 *
 * The worker starts with the first such read and ends after a quiet minute or when the database
 * is destroyed, so a server nobody asks for history holds no second thread.
 */

/** What the worker runs: plain JavaScript (it is evaluated, so it runs the same from src and dist). */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
const statements = new Map();
parentPort.on('message', ({ id, sql, parameters }) => {
  try {
    let statement = statements.get(sql);
    if (!statement) statements.set(sql, (statement = db.prepare(sql)));
    parentPort.postMessage({ id, rows: statement.all(...parameters) });
  } catch (error) {
    parentPort.postMessage({ id, message: String((error && error.message) || error) });
  }
});
`;

const IDLE_MS = 60_000;
const driverPath = createRequire(import.meta.url).resolve('better-sqlite3');

interface Reply {
  id: number;
  rows?: unknown[];
  message?: string;
}

class ReadWorker {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: (rows: unknown[]) => void; reject: (error: Error) => void }>();
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(
    file: string,
    private readonly onGone: () => void,
  ) {
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, driver: driverPath } });
    // A read in flight keeps the process alive (ref'd while pending); an idle worker does not.
    this.worker.unref();
    this.worker.on('message', (reply: Reply) => this.settle(reply));
    this.worker.on('error', (error) => this.fail(error));
    this.worker.on('exit', () => this.fail(new Error('The database reader stopped.')));
  }

  read(query: CompiledQuery): Promise<unknown[]> {
    clearTimeout(this.idleTimer);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      if (this.pending.size === 1) this.worker.ref();
      this.worker.postMessage({ id, sql: query.sql, parameters: query.parameters });
    });
  }

  async stop(): Promise<void> {
    clearTimeout(this.idleTimer);
    await this.worker.terminate();
  }

  private settle({ id, rows, message }: Reply): void {
    const waiting = this.pending.get(id);
    if (!waiting) return;
    this.pending.delete(id);
    if (message === undefined) waiting.resolve(rows ?? []);
    else waiting.reject(new Error(message));
    if (this.pending.size === 0) {
      this.worker.unref();
      this.idleTimer = setTimeout(() => void this.stop(), IDLE_MS).unref();
    }
  }

  private fail(error: Error): void {
    this.onGone();
    for (const { reject } of this.pending.values()) reject(error);
    this.pending.clear();
  }
}

const workersByFile = new Map<string, ReadWorker>();
/** Files whose database already stops their worker when destroyed (once, whatever restarts it). */
const stoppedOnDestroy = new Set<string>();

function workerFor(db: Db): ReadWorker | undefined {
  const sqlite = sqliteFileOf(db);
  if (!sqlite) return undefined;
  const { file } = sqlite;
  if (!stoppedOnDestroy.has(file)) {
    stoppedOnDestroy.add(file);
    sqlite.onDestroy(() => {
      stoppedOnDestroy.delete(file);
      const running = workersByFile.get(file);
      workersByFile.delete(file);
      return running?.stop();
    });
  }
  let worker = workersByFile.get(file);
  if (!worker) {
    const started: ReadWorker = new ReadWorker(file, () => {
      if (workersByFile.get(file) === started) workersByFile.delete(file);
    });
    workersByFile.set(file, (worker = started));
  }
  return worker;
}

/**
 * Runs a read-only query off the event loop (see above) and answers its rows. Only for reads that
 * may take long and need not see the caller's own open transaction (a worker reads what is committed).
 */
export async function readOffTheLoop<Row>(db: Db, query: { compile(): CompiledQuery<Row>; execute(): Promise<Row[]> }): Promise<Row[]> {
  const worker = workerFor(db);
  if (!worker) return query.execute();
  return (await worker.read(query.compile())) as Row[];
}
