/**
 * How long the server waits for what a client sends (docs/decisions.md D36). Fastify turns Node's
 * own request timeout off, so a client sending one byte every few seconds held its socket and its
 * half-read request open for as long as it liked; enough of them and nobody else gets a socket.
 * Constants, not settings: they follow from the upload cap and the slowest link a parent uses.
 */
export interface ServerTimeouts {
  /** The request line and headers; browsers and proxies send them in one packet. */
  headersMs: number;
  /** The whole request, body included, from its first byte. */
  requestMs: number;
  /** A socket with nothing moving either way, answer included (a client that stopped reading). */
  idleSocketMs: number;
  /** How often Node checks the first two. */
  checkEveryMs: number;
}

/** The slowest upload we wait for: 256 kbit/s, a weak mobile connection. */
const SLOWEST_UPLOAD_BYTES_PER_S = 32 * 1024;
/** At least Node's own default request timeout, for the ordinary calls of a slow link. */
const MIN_REQUEST_MS = 5 * 60_000;

/** The timeouts for a server whose largest upload is `uploadMaxBytes` (10 MiB: 320 s). */
export function serverTimeouts(uploadMaxBytes: number): ServerTimeouts {
  return {
    headersMs: 30_000,
    requestMs: Math.max(MIN_REQUEST_MS, Math.ceil(uploadMaxBytes / SLOWEST_UPLOAD_BYTES_PER_S) * 1000),
    // Above the longest silence of a legitimate answer: a document waits at most 60 s for the
    // worker pool (D33), and no database statement runs past 30 s (D36).
    idleSocketMs: 5 * 60_000,
    checkEveryMs: 5_000,
  };
}
