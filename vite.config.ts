import fs from 'node:fs';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Alias, type Plugin, type ProxyOptions, type UserConfig } from 'vite';

/** The web client: root src/web, built into dist/web, which the Fastify server serves (DESIGN §1). */

const webRoot = fileURLToPath(new URL('./src/web', import.meta.url));
const outDir = fileURLToPath(new URL('./dist/web', import.meta.url));
const apiServer = process.env.PORTAL_API_URL ?? 'http://127.0.0.1:3000';

/** Rollup's smallest chunk worth its own request (D102). */
const MIN_CHUNK_BYTES = 25_000;

const COMPRESSIBLE = /\.(m?js|css|html|svg|json)$/;
const MIN_COMPRESS_BYTES = 1024;

/**
 * `PORTAL_PRECOMPRESS=off` skips the .br and .gz files: the browser test suite builds the client
 * once per run and never measures transfer sizes, and brotli at quality 11 over every asset was
 * most of that build's time. The server then compresses per request, as it does for any file
 * without a precompressed twin (docs/decisions.md D69). Any other value, or none, precompresses.
 */
const precompress = process.env.PORTAL_PRECOMPRESS !== 'off';

/**
 * Writes .br and .gz beside each text file of the build once, at maximum compression, so the
 * server's @fastify/static (preCompressed) sends them without compressing per request.
 */
function precompressAssets(): Plugin {
  // The folder this build writes to: dist/web, or the one `--outDir` names (the test suite's).
  let builtDir = outDir;
  return {
    name: 'portal:precompress',
    apply: 'build',
    configResolved(config) {
      builtDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const files = fs.readdirSync(builtDir, { recursive: true, encoding: 'utf8' });
      for (const file of files) {
        const full = path.join(builtDir, file);
        if (!COMPRESSIBLE.test(file) || !fs.statSync(full).isFile()) continue;
        const bytes = fs.readFileSync(full);
        if (bytes.length < MIN_COMPRESS_BYTES) continue;
        fs.writeFileSync(
          `${full}.br`,
          zlib.brotliCompressSync(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
        );
        fs.writeFileSync(`${full}.gz`, zlib.gzipSync(bytes, { level: 9 }));
      }
    },
  };
}

/** GET /logout is the SPA's sign-out page; only POST /logout goes to the API server. */
function serveSpaForPageLoads(req: IncomingMessage): string | undefined {
  return req.method === 'GET' && req.headers.accept?.includes('text/html') ? '/index.html' : undefined;
}

/**
 * React Router 7's package exports name only its development build (remix-run/react-router#14102:
 * dev warnings on, ENABLE_DEV_WARNINGS checks at run time). A production build takes the
 * package's own production files instead; the dev server keeps the warnings.
 */
const reactRouterDist = fileURLToPath(new URL('./node_modules/react-router/dist/production/', import.meta.url));
const REACT_ROUTER_PRODUCTION: Alias[] = [
  { find: /^react-router$/, replacement: path.join(reactRouterDist, 'index.mjs') },
  { find: /^react-router\/dom$/, replacement: path.join(reactRouterDist, 'dom-export.mjs') },
];

const proxyToApi: ProxyOptions = { target: apiServer, changeOrigin: false };
const proxy: Record<string, ProxyOptions> = {
  '/api': proxyToApi,
  '/sanctum': proxyToApi,
  '/logout': { ...proxyToApi, bypass: serveSpaForPageLoads },
};

/** Where the server-side build of the web client goes: the module the server renders first pages with (entry-server.tsx). */
const ssrOutDir = fileURLToPath(new URL('./dist/ssr', import.meta.url));

/**
 * The server-side build (`vite build --ssr entry-server.tsx`): the same sources for Node. The
 * libraries stay in node_modules (dependencies of the server), except React Router, whose
 * production files are taken as for the browser.
 */
function serverRenderConfig(isProductionBuild: boolean): UserConfig {
  return {
    root: webRoot,
    base: '/',
    plugins: [react()],
    // Vite keeps `process.env.NODE_ENV` as it is in a server build, so the bundled React, MUI and
    // Emotion would choose their development code at run time wherever NODE_ENV is not
    // 'production' (Vitest sets 'test'): several times the CPU per page, and their checks. A
    // production build is a production bundle wherever it runs, as the browser's is.
    ...(isProductionBuild ? { define: { 'process.env.NODE_ENV': JSON.stringify('production') } } : {}),
    resolve: { alias: REACT_ROUTER_PRODUCTION },
    ssr: { noExternal: true },
    // The browser's build serves public/; this one is only code.
    publicDir: false,
    build: {
      outDir: ssrOutDir,
      emptyOutDir: true,
      target: 'node20',
      assetsInlineLimit: 0,
      rollupOptions: {
        onwarn(warning, warn) {
          if (warning.code === 'INVALID_ANNOTATION' && warning.id?.includes('node_modules')) return;
          warn(warning);
        },
      },
    },
  };
}

/** The web client's build and dev-server settings. */
function portalConfig(isProductionBuild: boolean): UserConfig {
  return {
    root: webRoot,
    base: '/',
    plugins: precompress ? [react(), precompressAssets()] : [react()],
    resolve: { alias: isProductionBuild ? REACT_ROUTER_PRODUCTION : [] },
    build: {
      outDir,
      emptyOutDir: true,
      target: 'es2022',
      // The server's CSP allows no data: scripts or images; every asset stays a file.
      assetsInlineLimit: 0,
      // The entry (React, MUI, the router and the login page) is large by nature; it is cached for a year.
      chunkSizeWarningLimit: 1000,
      rollupOptions: {
        // A chunk smaller than this (bytes of code) that runs nothing when loaded is merged into
        // one loaded with it: the sign-in page loads 7 files instead of 52, a registration step
        // 55 instead of 115, and on a phone's network each file costs a round trip (D102).
        output: { experimentalMinChunkSize: MIN_CHUNK_BYTES },
        onwarn(warning, warn) {
          // zod ships comments Rollup cannot place; they are only comments.
          if (warning.code === 'INVALID_ANNOTATION' && warning.id?.includes('node_modules')) return;
          warn(warning);
        },
      },
    },
    server: { host: '127.0.0.1', port: 5173, proxy },
    preview: { host: '127.0.0.1', port: 4173, proxy },
  };
}

export default defineConfig(({ command, mode, isSsrBuild }) => {
  // Vitest sets NODE_ENV=test, and a build run from a test would then bundle React's development
  // build. A production-mode build is always a production bundle.
  const isProductionBuild = command === 'build' && mode === 'production';
  if (isProductionBuild && process.env.NODE_ENV !== 'production') {
    process.env.NODE_ENV = 'production';
  }
  return isSsrBuild ? serverRenderConfig(isProductionBuild) : portalConfig(isProductionBuild);
});
