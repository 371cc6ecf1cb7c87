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

/**
 * Libraries that only later screens use get chunks of their own, which the lazily loaded screens
 * import; the sign-in pages never download them. MUI X is deliberately not one of them: as one
 * 'mui-x' chunk it sent the Data Grid (130 kB gzip, admin pages only) to every screen with a date
 * picker or a chart, and the MUI components the grid shares with the pickers went with it.
 * Rollup's own splitting by importer keeps the grid on the admin pages (docs/performance.md).
 */
const LATE_CHUNKS: ReadonlyArray<[name: string, pattern: RegExp]> = [
  ['charts', /[\\/]node_modules[\\/](chart\.js|react-chartjs-2|@kurkle)[\\/]/],
  ['pdfjs', /[\\/]node_modules[\\/]pdfjs-dist[\\/]/],
  ['date-fns', /[\\/]node_modules[\\/]date-fns[\\/]/],
  // zod parses answers and checks forms, but no first screen needs it: the login page's answers
  // and a registration step's record and status are checked without it (docs/performance.md, web).
  ['zod', /[\\/]node_modules[\\/]zod[\\/]/],
];
const NODE_MODULES = /[\\/]node_modules[\\/]/;

type ModuleInfo = { id: string; isEntry: boolean; importers: readonly string[] };
type ModuleInfoLookup = (id: string) => ModuleInfo | null;

/** "Does a chain of static imports lead to this module from a root, through passable modules?" */
interface ImportQuestion {
  isRoot: (info: ModuleInfo) => boolean;
  isPassable: (id: string) => boolean;
  /** Answers so far, by module id. */
  memo: Map<string, boolean>;
}

/**
 * The lazily loaded screens of the student area (SPEC §2: dashboard, registration steps, term
 * reports, attendance, password change). The libraries they import (MUI components) go to two
 * chunks rather than the two dozen small ones Rollup would cut them into: each file costs a round
 * trip, and a registration step waited for 30 of them (docs/performance.md, web):
 * - 'student-frame': what the signed-in frame and a registration step's first screen import (its
 *   fields, their menus and their checks load after that screen);
 * - 'student-area': what the other screens and the registration fields import besides.
 * The shared rules (src/shared) keep Rollup's split: every zod schema in a chunk is built when the
 * chunk loads, and a screen should build only its own. MUI X (date pickers, Data Grid) and what
 * only it imports keep Rollup's split too; the admin screens share what they can.
 */
const STUDENT_FRAME_SCREENS = /[\\/]src[\\/]web[\\/](components[\\/]app-shell|registration[\\/]registration-routes)\.tsx$/;
const STUDENT_AREA_SCREENS =
  /[\\/]src[\\/]web[\\/](dashboard[\\/]dashboard-page|auth[\\/]change-password-page|registration[\\/]registration-field|term-reports[\\/]term-reports-routes|attendance[\\/]attendance-routes|documents[\\/]documents-step-page|registration-complete[\\/]complete-step-page)\.tsx$/;
const MUI_X = /[\\/]node_modules[\\/]@mui[\\/]x-/;

/**
 * Rollup puts a manual chunk's dependencies into that chunk unless another manual chunk already
 * holds them. Without care, React would move into 'charts' (react-chartjs-2 imports it) and the
 * login page would load it. So every library module the entry imports statically goes to 'vendor'
 * first.
 */
function createManualChunks() {
  const loadedByEntry: ImportQuestion = { isRoot: (info) => info.isEntry, isPassable: () => true, memo: new Map() };
  const studentScreens = (screens: RegExp): ImportQuestion => ({
    isRoot: (info) => screens.test(info.id),
    isPassable: (id) => !MUI_X.test(id),
    memo: new Map(),
  });
  const loadedByStudentFrame = studentScreens(STUDENT_FRAME_SCREENS);
  const loadedByStudentArea = studentScreens(STUDENT_AREA_SCREENS);

  /** The answer to `question` for module `id`. */
  function isImportedFrom(id: string, question: ImportQuestion, getModuleInfo: ModuleInfoLookup): boolean {
    const { isRoot, isPassable, memo } = question;
    const known = memo.get(id);
    if (known !== undefined) return known;
    const seen = new Set([id]);
    const queue = [id];
    let found = false;
    while (!found && queue.length > 0) {
      const info = getModuleInfo(queue.shift() as string);
      if (info === null) continue;
      if (isRoot(info)) found = true;
      for (const importer of info.importers.filter(isPassable)) {
        if (memo.get(importer) === true) found = true;
        if (!seen.has(importer)) {
          seen.add(importer);
          queue.push(importer);
        }
      }
    }
    memo.set(id, found);
    return found;
  }

  return function manualChunks(id: string, { getModuleInfo }: { getModuleInfo: ModuleInfoLookup }): string | undefined {
    const late = LATE_CHUNKS.find(([, pattern]) => pattern.test(id));
    if (late) return late[0];
    if (!NODE_MODULES.test(id)) return undefined;
    if (isImportedFrom(id, loadedByEntry, getModuleInfo)) return 'vendor';
    if (MUI_X.test(id)) return undefined;
    if (isImportedFrom(id, loadedByStudentFrame, getModuleInfo)) return 'student-frame';
    if (isImportedFrom(id, loadedByStudentArea, getModuleInfo)) return 'student-area';
    return undefined;
  };
}

const COMPRESSIBLE = /\.(js|css|html|svg|json)$/;
const MIN_COMPRESS_BYTES = 1024;

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

/** The web client's build and dev-server settings; a fresh manual-chunk memo per build. */
function portalConfig(isProductionBuild: boolean): UserConfig {
  return {
    root: webRoot,
    base: '/',
    plugins: [react(), precompressAssets()],
    resolve: { alias: isProductionBuild ? REACT_ROUTER_PRODUCTION : [] },
    build: {
      outDir,
      emptyOutDir: true,
      // .vite/manifest.json: the server names a route's files in its index.html (src/server/web-preloads.ts).
      manifest: true,
      target: 'es2022',
      // The server's CSP allows no data: scripts or images; every asset stays a file.
      assetsInlineLimit: 0,
      // 'vendor' (what every page needs) is large by nature; it is cached for a year.
      chunkSizeWarningLimit: 1000,
      rollupOptions: {
        output: { manualChunks: createManualChunks() },
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

export default defineConfig(({ command, mode }) => {
  // Vitest sets NODE_ENV=test, and a build run from a test would then bundle React's development
  // build. A production-mode build is always a production bundle.
  const isProductionBuild = command === 'build' && mode === 'production';
  if (isProductionBuild && process.env.NODE_ENV !== 'production') {
    process.env.NODE_ENV = 'production';
  }
  return portalConfig(isProductionBuild);
});
