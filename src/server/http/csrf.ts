import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from './errors.js';

/**
 * CSRF by double submit (DESIGN §2, the spec's Sanctum call sequence): `GET /sanctum/csrf-cookie`
 * sets a random `XSRF-TOKEN` cookie readable by the page; every state-changing call must echo it
 * in `X-XSRF-TOKEN`. Another site can neither read the cookie nor set the header. With the
 * SameSite=Lax session cookie this is defence in depth (OWASP CSRF cheat sheet).
 */

export const CSRF_COOKIE = 'XSRF-TOKEN';
export const CSRF_HEADER = 'x-xsrf-token';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function tokensMatch(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && crypto.timingSafeEqual(left, right);
}

export const csrfPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onRequest', async (request) => {
      if (SAFE_METHODS.has(request.method)) return;
      if (request.routeOptions.config?.csrf === false || request.is404) return;
      const cookie = request.cookies[CSRF_COOKIE];
      const header = request.headers[CSRF_HEADER];
      if (!cookie || typeof header !== 'string' || !tokensMatch(cookie, header)) {
        throw new AppError(403, 'csrf_failed', 'Your page has expired. Reload it and try again.');
      }
    });

    app.get(
      '/sanctum/csrf-cookie',
      { config: { access: 'public' }, schema: { hide: true } },
      async (request, reply) => {
        const token = request.cookies[CSRF_COOKIE] ?? crypto.randomBytes(32).toString('base64url');
        reply.setCookie(CSRF_COOKIE, token, {
          path: '/',
          httpOnly: false,
          sameSite: 'lax',
          secure: request.protocol === 'https',
        });
        return reply.status(204).send();
      },
    );
  },
  { name: 'csrf', dependencies: ['@fastify/cookie'] },
);
