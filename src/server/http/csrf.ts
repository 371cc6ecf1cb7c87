import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from './errors.js';
import { isSameSignature, signatureOf } from './signing.js';

/**
 * CSRF by a signed double submit bound to the session (docs/decisions.md D2, D38: the Sanctum
 * call sequence; OWASP CSRF cheat sheet, "Signed Double-Submit Cookie"): `GET /sanctum/csrf-cookie`
 * sets an `XSRF-TOKEN` cookie readable by the page, and every state-changing call must echo it
 * in `X-XSRF-TOKEN`. A signed-in browser's token is the HMAC of its session id under the
 * server's secret, so a token is worth nothing with another session's cookie and a planted or
 * made-up value is refused; a visitor's is a random value with its HMAC. The token changes
 * whenever the session does (sign-in, password change, sign-out): a token from before is refused
 * after (docs/decisions.md D38). With the SameSite=Lax session cookie this is defence in depth.
 */

export const CSRF_COOKIE = 'XSRF-TOKEN';
export const CSRF_HEADER = 'x-xsrf-token';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

declare module 'fastify' {
  interface FastifyRequest {
    /** The session (id hash) the request arrived with, to see whether it changed on the way. */
    sessionIdHashOnArrival: string | null;
  }
}

/** The CSRF tokens one server secret signs. */
export interface CsrfTokens {
  /** The token of a signed-in session: HMAC of its id (as the sessions table keeps it). */
  forSession(sessionIdHash: string): string;
  /** A new visitor token: a random value and its HMAC. */
  newVisitor(): string;
  /** Whether the token is this session's, or, without a session, a visitor token this server signed. */
  isValid(token: string, sessionIdHash: string | null): boolean;
  /** The current state's token: the cookie's when it is still valid, else a new one. */
  current(cookie: string | undefined, sessionIdHash: string | null): string;
}

export function csrfTokens(secret: Buffer): CsrfTokens {
  const mac = (purpose: 'session' | 'visitor', value: string) => signatureOf(secret, 'csrf', purpose, value);
  const tokens: CsrfTokens = {
    forSession: (sessionIdHash) => mac('session', sessionIdHash),
    newVisitor() {
      const nonce = crypto.randomBytes(16).toString('base64url');
      return `${nonce}.${mac('visitor', nonce)}`;
    },
    isValid(token, sessionIdHash) {
      if (sessionIdHash) return isSameSignature(token, mac('session', sessionIdHash));
      const [nonce, signature, ...rest] = token.split('.');
      return Boolean(nonce && signature) && rest.length === 0 && isSameSignature(signature!, mac('visitor', nonce!));
    },
    current(cookie, sessionIdHash) {
      if (cookie && tokens.isValid(cookie, sessionIdHash)) return cookie;
      return sessionIdHash ? tokens.forSession(sessionIdHash) : tokens.newVisitor();
    },
  };
  return tokens;
}

function setTokenCookie(request: FastifyRequest, reply: FastifyReply, token: string): void {
  reply.setCookie(CSRF_COOKIE, token, {
    path: '/',
    httpOnly: false,
    sameSite: 'lax',
    secure: request.protocol === 'https',
  });
}

export const csrfPlugin = fp(
  async (app: FastifyInstance, options: { secret: () => Promise<Buffer> }) => {
    const tokensOf = async () => csrfTokens(await options.secret());
    app.decorateRequest('sessionIdHashOnArrival', null);

    // Runs after the session hook, which has set request.sessionIdHash.
    app.addHook('onRequest', async (request) => {
      request.sessionIdHashOnArrival = request.sessionIdHash;
      if (SAFE_METHODS.has(request.method)) return;
      if (request.routeOptions.config?.csrf === false || request.is404) return;
      const cookie = request.cookies[CSRF_COOKIE];
      const header = request.headers[CSRF_HEADER];
      if (!cookie || typeof header !== 'string' || !isSameSignature(cookie, header) || !(await tokensOf()).isValid(header, request.sessionIdHash)) {
        throw new AppError(403, 'csrf_failed', 'Your page has expired. Reload it and try again.');
      }
    });

    // A session started or ended by this call gets its token with the answer: the one the page
    // holds now belongs to the session before.
    app.addHook('onSend', async (request, reply) => {
      if (request.sessionIdHash === request.sessionIdHashOnArrival) return;
      const tokens = await tokensOf();
      setTokenCookie(request, reply, request.sessionIdHash ? tokens.forSession(request.sessionIdHash) : tokens.newVisitor());
    });

    app.get(
      '/sanctum/csrf-cookie',
      { config: { access: 'public' }, schema: { hide: true } },
      async (request, reply) => {
        setTokenCookie(request, reply, (await tokensOf()).current(request.cookies[CSRF_COOKIE], request.sessionIdHash));
        return reply.status(204).send();
      },
    );
  },
  { name: 'csrf', dependencies: ['@fastify/cookie', 'sessions'] },
);
