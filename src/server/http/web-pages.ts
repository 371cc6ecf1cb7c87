import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import fp from 'fastify-plugin';
import type { PageReader } from './reads.js';
import { withScriptNonce } from './security-headers.js';

/**
 * The web client's pages (docs/architecture.md "Web", docs/decisions.md D99): the built assets,
 * and for every address of the app the first page of the visit, rendered on the server from the
 * server-side build of the client (dist/ssr/entry-server.js) when it is there, else the app shell
 * (index.html) that renders in the browser. Anything else that matches no route answers the
 * JSON 404.
 */

/** What the server-side build exports (src/web/entry-server.tsx). */
interface PageRenderer {
  setSchoolName(name: string): void;
  renderPage(
    url: string,
    read: PageReader,
    signal: AbortSignal,
    nonce: string,
  ): Promise<
    | { kind: 'redirect'; status: number; location: string }
    | { kind: 'page'; status: number; head: string; body: string; state: string }
    | { kind: 'shell'; reason: string }
  >;
}

export interface WebPagesOptions {
  /** Folder of the built web client (index.html and assets/). */
  webRoot: string;
  /** The server-side build's module, or null to serve the shell only. */
  rendererFile: string | null;
  schoolName: string;
  /** The reads a page may render from, answered in the page's request (http/reads.ts). */
  readerFor: (request: FastifyRequest) => PageReader;
}

/** Every route of the plugin that registers this one is public (static files, pages, the API's docs). */
export const publicRoutes = fp(
  async (app: FastifyInstance) => {
    app.addHook('onRoute', (route) => {
      route.config = { ...(route.config ?? {}), access: route.config?.access ?? 'public' };
    });
  },
  { encapsulate: false },
);

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The app shell with the school's name written in, cut where a rendered page's parts go. */
function loadTemplate(indexFile: string, schoolName: string) {
  const escaped = escapeHtml(schoolName);
  const html = fs
    .readFileSync(indexFile, 'utf8')
    .replace(/(<meta name="application-name" content=")[^"]*(")/, `$1${escaped}$2`)
    .replace(/<title>[^<]*<\/title>/, `<title>${escaped} · Student Portal</title>`);
  const root = '<div id="root"></div>';
  const headEnd = html.indexOf('</head>');
  const rootAt = html.indexOf(root);
  const page = (head: string, body: string, state: string) => {
    if (headEnd < 0 || rootAt < headEnd) throw new Error(`${indexFile} has no </head> before <div id="root"></div>`);
    return `${html.slice(0, headEnd)}${head}${html.slice(headEnd, rootAt)}<div id="root">${body}</div>${state}${html.slice(rootAt + root.length)}`;
  };
  return { shell: html, page };
}

/** Serves the built client: assets with long cache lifetimes, pages rendered or the shell. */
export async function registerWebPages(app: FastifyInstance, options: WebPagesOptions): Promise<void> {
  const indexFile = path.join(options.webRoot, 'index.html');
  const template = fs.existsSync(indexFile) ? loadTemplate(indexFile, options.schoolName) : undefined;
  let renderer: PageRenderer | null = null;
  if (template && options.rendererFile && fs.existsSync(options.rendererFile)) {
    renderer = (await import(pathToFileURL(options.rendererFile).href)) as PageRenderer;
    renderer.setSchoolName(options.schoolName);
  }
  if (template) {
    await app.register(async (web) => {
      await web.register(publicRoutes);
      await web.register(fastifyStatic, {
        root: options.webRoot,
        wildcard: false,
        index: false,
        preCompressed: true,
        setHeaders(res, filePath) {
          const cacheable = filePath.includes(`${path.sep}assets${path.sep}`);
          res.setHeader('cache-control', cacheable ? 'public, max-age=31536000, immutable' : 'no-cache');
        },
      });
    });
  }

  const isClientRoute = (url: string) => !/^\/(api|sanctum)(\/|$)/.test(url) && !path.extname(url);

  /** The page at this address: rendered for this visit's session (never cached: it holds the person's data), or the shell. */
  async function sendPage(request: FastifyRequest, reply: FastifyReply, shell: string, page: NonNullable<typeof template>['page']) {
    if (renderer) {
      const abort = new AbortController();
      request.raw.once('close', () => abort.abort());
      const nonce = crypto.randomBytes(16).toString('base64');
      const rendered = await renderer.renderPage(request.url, options.readerFor(request), abort.signal, nonce).catch((error: unknown) => {
        // A page that fails to render is a defect to fix; the visitor still gets the page, from the browser.
        request.log.error({ err: error }, 'page failed to render on the server');
        return { kind: 'shell' as const, reason: 'failed to render' };
      });
      void reply.header('cache-control', 'no-store');
      if (rendered.kind === 'redirect') return reply.redirect(rendered.location, rendered.status);
      if (rendered.kind === 'page') {
        const policy = reply.getHeader('content-security-policy');
        if (typeof policy === 'string') void reply.header('content-security-policy', withScriptNonce(policy, nonce));
        return reply.status(rendered.status).type('text/html; charset=utf-8').send(page(rendered.head, rendered.body, rendered.state));
      }
      request.log.info({ reason: rendered.reason }, 'page left to the browser');
      return reply.type('text/html; charset=utf-8').send(shell);
    }
    return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(shell);
  }

  app.setNotFoundHandler(async (request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    if (template && (request.method === 'GET' || request.method === 'HEAD') && isClientRoute(url)) {
      return sendPage(request, reply, template.shell, template.page);
    }
    // A form of a rendered page sent before the page's code arrived (every form says method="post",
    // so nothing typed, a password least of all, goes into an address): the page again, its
    // fields as the browser kept them, and the body unread.
    if (template && request.method === 'POST' && isClientRoute(url)) {
      return reply.header('cache-control', 'no-store').redirect(request.url, 303);
    }
    return reply.status(404).send({ message: `No such route: ${request.method} ${url}`, code: 'not_found' });
  });
}
