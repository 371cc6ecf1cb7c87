import os from 'node:os';
import { fileURLToPath } from 'node:url';
import type { MessagePort } from 'node:worker_threads';
import { setMaxListeners } from 'node:events';
import PQueue from 'p-queue';
import { Piscina } from 'piscina';
import { AppError } from '../http/errors.js';
import type { Config } from '../config.js';

/**
 * The worker pool (piscina) for CPU-heavy work: rendering PDFs, checking uploaded PDFs, reading
 * uploaded spreadsheets, writing the office's spreadsheets. Work that takes seconds runs on another thread, so one clerk's 40-page
 * report or 300,000-row import never holds another user's sign-in or save (D33).
 *
 * - Threads: cores − 1 (at least 1), so the event loop keeps a core on a 2-core school server.
 * - Queue: at most MAX_QUEUED tasks wait; past that a request is refused with 503 and a message,
 *   rather than piling up memory and answering minutes late.
 * - Time: each task has a limit from when it is asked for (queue wait included); past it the task's
 *   thread is stopped and the caller gets a timeout.
 * - Memory: each thread's heap is capped, so a hostile file ends that thread, not the server; its
 *   young generation is kept small, so a school-wide document's garbage is collected often rather
 *   than left to fill 48 MB of nursery (D63).
 * - Priority: the threads run niced (WORKER_NICE, 10 unless configured), so the event loop gets a
 *   core first when both want one. In the queue, a task one person is waiting on (a report card, a
 *   registration form, the check of an upload) goes before the pieces of long work (a form's report
 *   cards, a school-wide report, a spreadsheet export: `batch`), so a family's report card waits
 *   for at most the pieces already started, not for the office's whole document (D100).
 * - Lifetime: the pool starts with the first task and each app closes it (onClose); an idle thread
 *   ends after a minute, so a server nobody prints on holds no second thread.
 *
 * The pool knows no kind of task: the module that asks for a kind declares it in `WorkerTasks`,
 * and the thread's entry, `src/server/worker-tasks.ts`, runs each kind (D87). From the compiled
 * server (dist) the thread loads `worker-tasks.js`; from the sources (tests, `npm run dev`) it
 * loads `tasks-from-source.mjs`, which registers tsx's loader in the thread first (Node 20 gives a
 * worker thread none of the main thread's module hooks).
 */

/**
 * The kinds of task, by name: what each is asked (`request`, plain data) and answers. Empty here:
 * the module that asks for a kind adds it by declaration merging,
 * `declare module '…/workers/worker-pool.js' { interface WorkerTasks { 'kind': {…} } }`.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface WorkerTasks {}
export type TaskKind = keyof WorkerTasks;
/** A task as the thread gets it: its kind and its request. */
export type TaskRequest<K extends TaskKind = TaskKind> = { [P in K]: { kind: P } & WorkerTasks[P]['request'] }[K];
export type TaskAnswer<K extends TaskKind> = WorkerTasks[K]['answer'];

export const POOL_THREADS = Math.max(1, os.availableParallelism() - 1);
/** Tasks that may wait for a thread; one more is refused with 503. */
export const MAX_QUEUED = 16;
/** Heap of each thread: a report card takes ~30 MB, a part of a school-wide document ~50 MB, a large import more. */
const THREAD_HEAP_MB = 512;
/**
 * Young generation of each thread. V8's default (48 MB, three 16 MB semi-spaces) is what a pool
 * thread's heap grew by while it laid out the parts of the 10,000-student reports; 8 MB keeps the
 * thread's heap at ~55-65 MB instead of ~80-95 MB, for ~20 % more CPU in those documents (more
 * scavenges). The old generation's cap is not what grew: 128 MB changed nothing (D63).
 */
const THREAD_YOUNG_MB = 8;
const IDLE_MS = 60_000;
/** How much lower the threads' priority is than the server's (nice levels): `configureWorkerPool`. */
let threadNice = 10;

/** A task's time limit, from when it is asked for, unless its caller gives another (`runInWorker`). */
export const TASK_TIME_LIMIT_MS = 60_000;

const runningFromSource = import.meta.url.endsWith('.ts');
const TASKS_FILE = fileURLToPath(new URL(runningFromSource ? './tasks-from-source.mjs' : '../worker-tasks.js', import.meta.url));

/** Why a task did not answer: its thread ran out of memory, took too long, or failed. */
export class WorkerTaskFailed extends Error {
  constructor(
    readonly reason: 'timeout' | 'out-of-memory' | 'crashed',
    cause: unknown,
  ) {
    super(`worker task failed: ${reason}`, { cause });
    this.name = 'WorkerTaskFailed';
  }
}

let pool: Piscina<TaskRequest, TaskAnswer<TaskKind>> | undefined;

/**
 * The tasks waiting for a thread, in the order they run: a task a person is waiting on first, then
 * the pieces of long work (`batch`), each in the order asked (p-queue's priorities). Piscina's own
 * queue cannot order them: a task given an AbortSignal, as every task here is (its time limit),
 * skips piscina's `taskQueue` for a first-come list of its own. So the pool is handed at most one
 * task per thread, and every other task waits here, where its time limit also removes it.
 */
const waiting = new PQueue({ concurrency: POOL_THREADS });
const PERSON_FIRST = 1;
const BATCH = 0;
/**
 * Aborted when the pool closes: what still waits then fails, rather than start a new pool. Each
 * task waiting or running listens to it, so it has as many listeners as the queue has places.
 */
let poolOpen = openPool();

function openPool(): AbortController {
  const controller = new AbortController();
  setMaxListeners(MAX_QUEUED + POOL_THREADS, controller.signal);
  return controller;
}

function startPool(): Piscina<TaskRequest, TaskAnswer<TaskKind>> {
  pool ??= new Piscina({
    filename: TASKS_FILE,
    minThreads: 0,
    maxThreads: POOL_THREADS,
    idleTimeout: IDLE_MS,
    resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB, maxYoungGenerationSizeMb: THREAD_YOUNG_MB },
    // The threads run at a lower priority than the event loop (Linux, through piscina's optional
    // @napi-rs/nice): on two cores a render must not take the core a sign-in is waiting for.
    niceIncrement: threadNice,
  });
  return pool;
}

/**
 * Takes the threads' priority from the configuration (WORKER_NICE). buildApp calls it; threads
 * already running keep theirs until the pool is closed.
 */
export function configureWorkerPool(config: Pick<Config, 'workerNice'>): void {
  threadNice = config.workerNice;
}

function busy(): AppError {
  return new AppError(503, 'service_unavailable', 'The server is busy making other documents and reading other files. Try again in a minute.', undefined, {
    'retry-after': '30',
  });
}

/**
 * Throws the pool's 503 when no more tasks may wait: for a caller that must know before it
 * answers anything (a spreadsheet streamed as it is written sends its headers first).
 */
export function assertPoolHasRoom(): void {
  if (waiting.size >= MAX_QUEUED) throw busy();
}

/**
 * Runs a task on the pool and answers its result. `transferList`: buffers (or a MessagePort) of
 * the request handed to the thread rather than copied; `timeLimitMs`: the task's limit
 * (TASK_TIME_LIMIT_MS unless given); `batch`: the task is a piece of long work, queued after every
 * task a person is waiting on. Throws 503 (AppError) when the queue is full, and WorkerTaskFailed
 * when the task timed out, ran out of memory or crashed: the caller says what that means for its
 * request (a refused upload, a failed print).
 */
export async function runInWorker<K extends TaskKind>(
  task: TaskRequest<K>,
  options: { transferList?: (ArrayBuffer | MessagePort)[]; timeLimitMs?: number; batch?: boolean } = {},
): Promise<TaskAnswer<K>> {
  assertPoolHasRoom();
  // Ended by its time limit or by the pool's closing (a listener each, removed after: the
  // pool's signal lives as long as the pool).
  const timeLimit = AbortSignal.timeout(options.timeLimitMs ?? TASK_TIME_LIMIT_MS);
  const open = poolOpen.signal;
  const stop = new AbortController();
  const end = () => stop.abort();
  timeLimit.addEventListener('abort', end, { once: true });
  open.addEventListener('abort', end, { once: true });
  const { signal } = stop;
  try {
    // The same signal ends the task whether it is still waiting (p-queue removes it) or running
    // (piscina stops its thread). The pool is typed for every kind at once; the task is one of them.
    return await waiting.add(() => startPool().run(task as TaskRequest, { signal, transferList: options.transferList }), {
      priority: options.batch ? BATCH : PERSON_FIRST,
      signal,
    });
  } catch (error) {
    // Past its limit while running (piscina's AbortError) or while waiting (the signal's own reason).
    if (timeLimit.aborted) throw new WorkerTaskFailed('timeout', error);
    if ((error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY') throw new WorkerTaskFailed('out-of-memory', error);
    throw new WorkerTaskFailed('crashed', error);
  } finally {
    open.removeEventListener('abort', end);
    timeLimit.removeEventListener('abort', end);
  }
}

/** Stops the pool's threads (with the app); the next task starts a new pool. */
export async function closeWorkerPool(): Promise<void> {
  const closing = pool;
  pool = undefined;
  poolOpen.abort(new Error('the worker pool closed'));
  poolOpen = openPool();
  await closing?.destroy();
}
