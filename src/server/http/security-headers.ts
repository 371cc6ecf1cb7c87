import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * helmet's options for the portal: a strict CSP (OWASP "Content Security Policy"), framing by our
 * own pages only (the PDFs are shown in frames), HSTS only behind a TLS-terminating proxy.
 */
function securityHeaderOptions(options: { hsts: boolean }): HelmetOptions {
  return {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // MUI's emotion writes <style> tags at run time; scripts stay strictly 'self'.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        frameSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        // PDFs are shown in frames of our own pages only.
        frameAncestors: ["'self'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
      },
    },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: options.hsts ? { maxAge: 15552000 } : false,
  };
}

/**
 * helmet's headers on every answer, from one middleware built at start. @fastify/helmet calls
 * `helmet(options)` again on every request — validating and serialising the CSP each time, 7 %
 * of a signed-in read (docs/performance.md) — although the options never change; built once,
 * helmet keeps the CSP header as a ready string. Same headers, set the same way (on the raw
 * response, before any route runs, so error answers and static files carry them too).
 */
export const securityHeadersPlugin = fp(
  async (app: FastifyInstance, options: { hsts: boolean }) => {
    const setSecurityHeaders = helmet(securityHeaderOptions(options));
    app.addHook('onRequest', (request, reply, done) => {
      setSecurityHeaders(request.raw, reply.raw, (error?: unknown) => done(error instanceof Error ? error : undefined));
    });
  },
  { name: 'security-headers' },
);
