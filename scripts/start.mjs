// npm start: build what is missing or stale, then run the server (docs/operations.md).
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, build, isBuildStale } from './build-lib.mjs';

if (isBuildStale()) {
  process.stdout.write('Building the portal (first start or changed sources)…\n');
  build();
}
process.env.NODE_ENV ??= 'production';
await import(pathToFileURL(path.join(ROOT, 'dist/server/main.js')).href);
