// npm run dev: the API with tsx watch on :3000 and Vite's dev server (with its proxy) on :5173.
import { spawn } from 'node:child_process';
import { ROOT } from './build-lib.mjs';

const children = [
  spawn(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'watch', 'src/server/main.ts'], { cwd: ROOT, stdio: 'inherit' }),
  spawn(process.execPath, ['node_modules/vite/bin/vite.js'], { cwd: ROOT, stdio: 'inherit' }),
];
const stop = () => children.forEach((child) => child.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
