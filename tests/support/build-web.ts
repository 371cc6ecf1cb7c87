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
  }
}

/**
 * The browser suite drives the built client: build it once per run, into a folder of the run's
 * own (not dist/web), so a parallel run or `npm start` never serves a half-written bundle. Without
 * the .br and .gz twins (PORTAL_PRECOMPRESS=off, vite.config.ts): maximum brotli over every asset
 * was most of the build's time, and no spec measures transfer sizes (docs/decisions.md D69).
 */
export default function setup(project: TestProject): () => void {
  const outDir = path.join(os.tmpdir(), `portal-web-${process.pid}-${crypto.randomBytes(3).toString('hex')}`);
  const result = spawnSync(
    process.execPath,
    [path.join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'error', '--outDir', outDir, '--emptyOutDir'],
    { cwd: ROOT, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production', PORTAL_PRECOMPRESS: 'off' } },
  );
  if (result.status !== 0) throw new Error('vite build failed');
  project.provide('webRoot', outDir);
  return () => fs.rmSync(outDir, { recursive: true, force: true });
}
