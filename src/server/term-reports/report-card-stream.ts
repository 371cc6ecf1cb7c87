import { once } from 'node:events';
import { PassThrough, Transform } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { callerOf } from '../access/roles.js';
import type { Db } from '../db/database.js';
import { requireUser } from '../http/access.js';
import { AppError } from '../http/errors.js';
import { actorOf } from '../http/request-context.js';
import type { TermNumber } from '../../shared/school.constants.js';
import { classReportCardsFileName, formReportCardsFileName, type ReportCardBuildEvent } from '../../shared/term-reports.schemas.js';
import { buildClassCardsPdf, recordReportCardsPrinted, type BuildOptions, type CardsPlan } from './report-card-sets.service.js';

/**
 * The report-day answer as a stream of JSON lines (docs/decisions.md D59): the browser reads the
 * progress while the server builds and the file when it is made, in one request, so nothing is kept
 * between calls (any process answers any call: docs/operations.md, "More than one process") and the
 * access checks of the route are the only ones needed. The file goes out base64 in `data` lines of
 * DATA_LINE_BYTES.
 */

const DATA_LINE_BYTES = 48 * 1024;
const FAILED = 'The report cards could not be made. Try again in a minute.';

interface BuildRequest {
  db: Db;
  request: FastifyRequest;
  reply: FastifyReply;
  plan: CardsPlan;
  year: number;
  term: TermNumber;
  schoolName: string;
}

/** The lines of one answer, written with the socket's back-pressure, stopping when it closes. */
class EventStream {
  readonly out = new PassThrough();
  readonly aborted = new AbortController();

  constructor(reply: FastifyReply) {
    // The browser went away: the build stops between parts (after the end this changes nothing).
    reply.raw.once('close', () => this.aborted.abort());
  }

  async send(event: ReportCardBuildEvent): Promise<void> {
    if (!this.out.write(`${JSON.stringify(event)}\n`)) await once(this.out, 'drain', { signal: this.aborted.signal });
  }

  async sendBytes(bytes: Buffer): Promise<void> {
    for (let at = 0; at < bytes.length; at += DATA_LINE_BYTES) {
      await this.send({ type: 'data', base64: bytes.subarray(at, at + DATA_LINE_BYTES).toString('base64') });
    }
  }
}

/** Starts the answer: headers, then the build runs while the lines go out. */
function startAnswer(reply: FastifyReply, events: EventStream): FastifyReply {
  return reply
    .header('content-type', 'application/x-ndjson; charset=utf-8')
    .header('cache-control', 'private, no-store')
    .header('x-content-type-options', 'nosniff')
    // A proxy that buffers answers would hold the progress back until the end.
    .header('x-accel-buffering', 'no')
    .send(events.out);
}

/** Runs the build; a failure after the first line is an `error` line (the status has gone). */
function run(input: BuildRequest, events: EventStream, build: () => Promise<void>): void {
  build()
    .catch(async (error: unknown) => {
      if (events.aborted.signal.aborted) return;
      if (!(error instanceof AppError) || error.statusCode >= 500) input.request.log.error({ err: error }, 'report card build failed');
      // The pool's "busy, try again" is worded for people; anything else is not shown.
      await events.send({ type: 'error', message: error instanceof AppError ? error.message : FAILED }).catch(() => undefined);
    })
    .finally(() => events.out.end());
}

/** What a class's build needs from the request: who asks, the term, and where its progress goes. */
function buildOptions(input: BuildRequest, events: EventStream, onProgress: BuildOptions['onProgress']): BuildOptions {
  return { caller: callerOf(requireUser(input.request)), year: input.year, term: input.term, schoolName: input.schoolName, signal: events.aborted.signal, onProgress };
}

/** A class's cards: one PDF. */
export function sendClassCards(input: BuildRequest): FastifyReply {
  const events = new EventStream(input.reply);
  const cards = input.plan.classes[0]!;
  const answer = startAnswer(input.reply, events);
  run(input, events, async () => {
    const fileName = classReportCardsFileName(cards.classId, input.year, input.term);
    await events.send({ type: 'start', total: input.plan.total, classes: 1, file_name: fileName, content_type: 'application/pdf' });
    const pdf = await buildClassCardsPdf(input.db, cards, buildOptions(input, events, (done) => events.send({ type: 'progress', done, total: input.plan.total, class_id: cards.classId })));
    // Logged before a byte of the file leaves, as a single card is.
    await recordReportCardsPrinted(input.db, actorOf(input.request), cards, input.year, input.term, `${cards.classId} class PDF`);
    await events.sendBytes(pdf);
    await events.send({ type: 'end', bytes: pdf.length });
  });
  return answer;
}

/**
 * A form level's cards: a zip with one PDF per class, built a class at a time and streamed into
 * the answer as it is written (archiver), so the server holds one class's PDF at a time however
 * large the form.
 */
export function sendFormCards(input: BuildRequest, formLevel: number): FastifyReply {
  const events = new EventStream(input.reply);
  const answer = startAnswer(input.reply, events);
  run(input, events, async () => {
    const fileName = formReportCardsFileName(formLevel, input.year, input.term);
    await events.send({ type: 'start', total: input.plan.total, classes: input.plan.classes.length, file_name: fileName, content_type: 'application/zip' });
    // Loaded with the first form's zip, not with the server (docs/performance.md, at-rest).
    const { default: archiver } = await import('archiver');
    // PDFs are compressed already: stored, not deflated again.
    const zip = archiver('zip', { store: true });
    let zipBytes = 0;
    const framing = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        zipBytes += chunk.length;
        const lines: string[] = [];
        for (let at = 0; at < chunk.length; at += DATA_LINE_BYTES) {
          lines.push(`${JSON.stringify({ type: 'data', base64: chunk.subarray(at, at + DATA_LINE_BYTES).toString('base64') } satisfies ReportCardBuildEvent)}\n`);
        }
        done(null, lines.join(''));
      },
    });
    const zipFailed = new Promise<never>((_, reject) => zip.once('error', reject));
    zipFailed.catch(() => undefined);
    zip.pipe(framing).pipe(events.out, { end: false });
    let before = 0;
    for (const cards of input.plan.classes) {
      const onProgress = (done: number) => events.send({ type: 'progress', done: before + done, total: input.plan.total, class_id: cards.classId });
      const pdf = await buildClassCardsPdf(input.db, cards, buildOptions(input, events, onProgress));
      await recordReportCardsPrinted(input.db, actorOf(input.request), cards, input.year, input.term, `Form ${formLevel} zip`);
      // The next class is read only once this one is in the zip, whatever the browser's pace.
      const written = once(zip, 'entry', { signal: events.aborted.signal });
      zip.append(pdf, { name: classReportCardsFileName(cards.classId, input.year, input.term) });
      await Promise.race([written, zipFailed]);
      before += cards.studentIds.length;
    }
    const framed = once(framing, 'end', { signal: events.aborted.signal });
    await Promise.race([zip.finalize(), zipFailed]);
    await framed;
    await events.send({ type: 'end', bytes: zipBytes });
  });
  return answer;
}
