import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * helmet's options for the portal: a strict CSP (OWASP "Content Security Policy"), framing by our
 * own pages only (the PDFs are shown in frames). `upgrade-insecure-requests` and HSTS only for a
 * request that arrived over TLS: on a school's own network the portal is often reached over plain
 * HTTP by a name or address, and a browser told to upgrade would fetch every script and call over
 * an https that is not there (a blank page). localhost is exempt in browsers, so only a real
 * name shows it.
 */
function securityHeaderOptions(overTls: boolean): HelmetOptions {
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
        // helmet adds it by default; null leaves it out.
        upgradeInsecureRequests: overTls ? [] : null,
      },
    },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: overTls ? { maxAge: 15552000 } : false,
  };
}

/**
 * helmet's headers on every answer, from two middlewares built at start, one for requests over
 * TLS and one for plain HTTP. @fastify/helmet calls `helmet(options)` again on every request —
 * validating and serialising the CSP each time, 7 % of a signed-in read (docs/performance.md) —
 * although the options never change; built once, helmet keeps the CSP header as a ready string.
 * Same headers, set the same way (on the raw response, before any route runs, so error answers
 * and static files carry them too). Over TLS means Fastify's `request.protocol` is https: the
 * portal itself speaks plain HTTP, so that is X-Forwarded-Proto from a proxy TRUST_PROXY lists
 * (D39), the same test that marks the cookies Secure.
 */
export const securityHeadersPlugin = fp(
  async (app: FastifyInstance) => {
    const overTls = helmet(securityHeaderOptions(true));
    const overHttp = helmet(securityHeaderOptions(false));
    app.addHook('onRequest', (request, reply, done) => {
      const setSecurityHeaders = request.protocol === 'https' ? overTls : overHttp;
      setSecurityHeaders(request.raw, reply.raw, (error?: unknown) => done(error instanceof Error ? error : undefined));
    });
  },
  { name: 'security-headers' },
);

/**
 * A page's CSP with a nonce of its own in `script-src`: the inline scripts React writes into a
 * page rendered on the server (the instructions that reveal a part rendered late) carry it, and
 * nothing else inline runs (docs/decisions.md D99). The rest of the policy is helmet's, as built.
 */
export function withScriptNonce(policy: string, nonce: string): string {
  return policy.replace(/(^|;)script-src ([^;]*)/, `$1script-src $2 'nonce-${nonce}'`);
}
