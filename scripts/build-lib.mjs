import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const STAMP = path.join(ROOT, 'dist', '.build-stamp');
const INPUTS = ['src', 'package.json', 'package-lock.json', 'vite.config.ts', 'tsconfig.json', 'tsconfig.server.json'];

function newestMtime(target) {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

/** True when dist/ is missing or older than any source file. */
export function isBuildStale() {
  if (!fs.existsSync(STAMP) || !fs.existsSync(path.join(ROOT, 'dist/server/main.js')) || !fs.existsSync(path.join(ROOT, 'dist/web/index.html')) || !fs.existsSync(path.join(ROOT, 'dist/ssr/entry-server.js'))) return true;
  const built = fs.statSync(STAMP).mtimeMs;
  return INPUTS.some((input) => newestMtime(path.join(ROOT, input)) > built);
}

function run(command, args) {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) {
    process.stderr.write(`Build step failed: ${command} ${args.join(' ')}\n`);
    process.exit(result.status ?? 1);
  }
}

/** Compiles the server (tsc) and bundles the web client (vite) for the browser and for the server, then stamps dist/. */
export function build() {
  const started = Date.now();
  fs.mkdirSync(path.join(ROOT, 'dist'), { recursive: true });
  // tsc never deletes what it wrote for a source that has since moved or gone: start from empty,
  // so dist/ holds only the product (its incremental state goes too, or it would skip the emit).
  for (const stale of ['server', 'shared', '.tsbuildinfo-server']) fs.rmSync(path.join(ROOT, 'dist', stale), { recursive: true, force: true });
  run(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.server.json']);
  run(process.execPath, [path.join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn']);
  // The same client built for Node: the server renders the first page of a visit with it (docs/decisions.md D99).
  run(process.execPath, [path.join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--ssr', 'entry-server.tsx', '--logLevel', 'warn']);
  fs.writeFileSync(STAMP, new Date().toISOString());
  process.stdout.write(`Built server and web client in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}
