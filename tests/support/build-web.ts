import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

declare module 'vitest' {
  export interface ProvidedContext {
    webRoot: string;
    /** The server-side build of the client, which renders each visit's first page (src/web/entry-server.tsx). */
    pageRenderer: string;
  }
}

/**
 * The browser suite drives the built client: build it once per run, into a folder of the run's
 * own (not dist/web), so a parallel run or `npm start` never serves a half-written bundle. Without
 * the .br and .gz twins (PORTAL_PRECOMPRESS=off, vite.config.ts): maximum brotli over every asset
 * was most of the build's time, and no spec measures transfer sizes (docs/decisions.md D69). The
 * server-side build goes beside it, as `npm start`'s does (docs/decisions.md D99).
 */
export default function setup(project: TestProject): () => void {
  const outDir = path.join(os.tmpdir(), `portal-web-${process.pid}-${crypto.randomBytes(3).toString('hex')}`);
  const ssrDir = `${outDir}-ssr`;
  const vite = (...args: string[]) =>
    spawnSync(process.execPath, [path.join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'error', ...args], {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, NODE_ENV: 'production', PORTAL_PRECOMPRESS: 'off' },
    });
  if (vite('--outDir', outDir, '--emptyOutDir').status !== 0) throw new Error('vite build failed');
  if (vite('--ssr', 'entry-server.tsx', '--outDir', ssrDir, '--emptyOutDir').status !== 0) throw new Error('vite build --ssr failed');
  project.provide('webRoot', outDir);
  project.provide('pageRenderer', path.join(ssrDir, 'entry-server.js'));
  return () => {
    fs.rmSync(outDir, { recursive: true, force: true });
    fs.rmSync(ssrDir, { recursive: true, force: true });
  };
}
