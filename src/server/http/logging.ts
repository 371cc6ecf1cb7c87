import type { FastifyInstance } from 'fastify';
import type { DestinationStream, LogFn, Logger, LoggerOptions } from 'pino';

/**
 * The server's log (docs/operations.md, "Logs"): an error line  is something for the operator to
 * act on. A client that hangs up before its answer is complete (a closed tab, a cancelled
 * download, a navigation that drops the screen's request) is not: @fastify/compress reports the
 * broken pipe at error level, so the logger's own hook writes it at info, with the route (D90).
 */

/**
 * The error of a stream whose other end closed before the end (a client gone mid-answer): Node's
 * own (`ERR_STREAM_PREMATURE_CLOSE`), or end-of-stream's, which @fastify/compress's pump uses and
 * which has no code, only its message.
 */
export function isClientHangUp(value: unknown): boolean {
  if (!(value instanceof Error)) return false;
  return (value as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE' || value.message === 'premature close';
}

const WARN = 40;
export const CLIENT_GONE_MESSAGE = 'the client closed the connection before the answer was complete';

/** The error a log call carries: the first argument itself, or its `err`. */
function errorOf(first: unknown): unknown {
  if (first instanceof Error) return first;
  return typeof first === 'object' && first !== null ? (first as { err?: unknown }).err : undefined;
}

/** Pino's options for the server's logger; `stream` is where lines go (stdout when left out). */
export function loggerOptions(level: string, stream?: DestinationStream): LoggerOptions & { stream?: DestinationStream } {
  return {
    level,
    ...(stream ? { stream } : {}),
    hooks: {
      logMethod(this: Logger, args: Parameters<LogFn>, method: LogFn, logLevel: number) {
        if (logLevel >= WARN && isClientHangUp(errorOf(args[0]))) {
          this.info({ reason: 'client-closed' }, CLIENT_GONE_MESSAGE);
          return;
        }
        method.apply(this, args);
      },
    },
  };
}

/**
 * Every line a request writes names its route (the pattern, never the address, whose query may
 * hold a link's secret). The reply's logger is the request's own: both are replaced.
 */
export function registerRouteInLog(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    const log = request.log.child({ route: request.routeOptions.url ?? 'unmatched' });
    request.log = log;
    reply.log = log;
  });
}
