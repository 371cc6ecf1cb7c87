import fs from 'node:fs';
import path from 'node:path';
import { screenModulesFor, type ScreenModules } from '../shared/screen-modules.js';
import type { SessionUser } from './http/session.js';

/** One chunk of Vite's build manifest (`build.manifest`): its file and the chunks it imports statically. */
interface ManifestChunk {
  file: string;
  name?: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
}
export type BuildManifest = Record<string, ManifestChunk>;

/** Where Vite writes the manifest inside the build folder. */
const MANIFEST_FILE = path.join('.vite', 'manifest.json');

/** The build's manifest, or undefined for a build without one (then pages simply get no preloads). */
export function readBuildManifest(webRoot: string): BuildManifest | undefined {
  try {
    return JSON.parse(fs.readFileSync(path.join(webRoot, MANIFEST_FILE), 'utf8')) as BuildManifest;
  } catch {
    return undefined;
  }
}

/** The manifest keys `roots` import, directly or not, themselves included. */
function staticClosure(manifest: BuildManifest, roots: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const queue = roots.filter((key) => key in manifest);
  while (queue.length > 0) {
    const key = queue.pop() as string;
    if (seen.has(key)) continue;
    seen.add(key);
    queue.push(...(manifest[key]?.imports ?? []));
  }
  return seen;
}

/**
 * The manifest key of a source module (a path under src/web). A module is its own key when a
 * chunk starts from it; one that other screens also import statically is a shared chunk, keyed by
 * its file ('_registration-routes-….js') and named after the module.
 */
export function manifestKeyOf(manifest: BuildManifest, module: string): string | undefined {
  if (module in manifest) return module;
  const name = path.posix.basename(module).replace(/\.[^.]+$/, '');
  const shared = Object.keys(manifest).filter((key) => key.startsWith('_') && manifest[key]?.name === name);
  return shared.length === 1 ? shared[0] : undefined;
}

/**
 * The built files (as URL paths) the screens of `modules` need and the entry does not already
 * load: what a page showing those screens should preload.
 */
export function preloadFilesFor(manifest: BuildManifest, modules: readonly string[]): string[] {
  const entries = Object.keys(manifest).filter((key) => manifest[key]?.isEntry);
  const loadedByEntry = staticClosure(manifest, entries);
  const roots = modules.flatMap((module) => manifestKeyOf(manifest, module) ?? []);
  return [...staticClosure(manifest, roots)]
    .filter((key) => !loadedByEntry.has(key))
    .map((key) => `/${manifest[key]?.file}`)
    .sort();
}

/** Who a page is for, as the session hook found them; null for a visitor. */
export type PageViewer = Pick<SessionUser, 'role' | 'studentId' | 'firstLogin' | 'passwordReset'> | null;

/**
 * The calls the path's screens make at once that this page may ask for itself: only for a signed-in
 * student, only with their own id, and not while a password change is pending (the client then
 * shows nothing but the change, so the answers would go unused).
 */
export function ownCallsFor(screens: ScreenModules | undefined, viewer: PageViewer): readonly string[] {
  if (!screens?.studentCalls || viewer?.role !== 'student' || !viewer.studentId) return [];
  if (viewer.firstLogin || viewer.passwordReset) return [];
  return screens.studentCalls(viewer.studentId);
}

/** Text as it may stand in HTML, in an element or an attribute (the school's name, a preloaded URL). */
export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * `<link rel="preload" as="fetch">` of calls, written as index.html writes the session's: the same
 * mode and credentials as the web client's fetch (api-client.ts), so the browser hands the answer
 * to it. They go last in the head, after the scripts: over HTTP/1.1 the browser has six
 * connections to the server, and the scripts (the most bytes) should take the first of them.
 */
function withCallPreloads(html: string, calls: readonly string[]): string {
  if (calls.length === 0) return html;
  const links = calls.map((call) => `<link rel="preload" href="${escapeHtml(call)}" as="fetch" crossorigin="use-credentials" />`);
  return html.replace('</head>', `  ${links.join('\n    ')}\n  </head>`);
}

/**
 * index.html for a client path and the user asking: the page as built, plus
 * `<link rel="modulepreload">` for the files of the path's screens (src/shared/screen-modules.ts;
 * one page per prefix, made once) and, for a signed-in student, `<link rel="preload" as="fetch">`
 * of the screens' first calls for their own record (docs/performance.md, web). The answer then
 * depends on the session cookie: app.ts sends it as private and varying by cookie.
 */
export function indexHtmlWithPreloads(
  indexHtml: string,
  manifest: BuildManifest | undefined,
): (urlPath: string, viewer: PageViewer) => string {
  const byPrefix = new Map<string, string>();
  return (urlPath, viewer) => {
    const screens = manifest ? screenModulesFor(urlPath) : undefined;
    if (!manifest || !screens) return indexHtml;
    let html = byPrefix.get(screens.prefix);
    if (html === undefined) {
      const links = preloadFilesFor(manifest, screens.modules)
        .map((file) => `<link rel="modulepreload" crossorigin href="${file}" />`)
        .join('\n    ');
      html = links ? indexHtml.replace('</head>', `  ${links}\n  </head>`) : indexHtml;
      byPrefix.set(screens.prefix, html);
    }
    return withCallPreloads(html, ownCallsFor(screens, viewer));
  };
}
