import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CSRF_COOKIE, CSRF_HEADER } from '../../../src/server/http/csrf.js';
import { SESSION_COOKIE } from '../../../src/server/http/session.js';

/**
 * The real server in a child process (durability, two-process and brute-force suites): started
 * from the sources with tsx so it is never a stale build, on a free port (PORT=0, the address
 * read from its banner), loopback only, and always killed by the suite. Passwords are hashed at
 * the test cost (PASSWORD_HASH_COST=test, as testConfig) unless the suite passes its own.
 */

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const STARTUP_TIMEOUT_MS = 45_000;

export interface PortalProcess {
  url: string;
  child: ChildProcess;
  output(): string;
  /** SIGKILL: no shutdown hook runs, as in a power cut of the process. */
  kill(): Promise<void>;
  /** SIGTERM and wait. */
  stop(): Promise<void>;
}

/** Where the portal keeps its data: a PostgreSQL URL, or a DATA_DIR holding portal.sqlite. */
export type PortalStore = { databaseUrl: string } | { dataDir: string };

/** A DATA_DIR holding a copy of a seeded SQLite file as portal.sqlite. */
export function dataDirWith(sqliteFile: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-process-'));
  fs.copyFileSync(sqliteFile, path.join(dir, 'portal.sqlite'));
  return dir;
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

export async function startPortalProcess(store: PortalStore, env: Record<string, string> = {}): Promise<PortalProcess> {
  const storeEnv = 'databaseUrl' in store ? { DATABASE_URL: store.databaseUrl } : { DATA_DIR: store.dataDir };
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? os.tmpdir(),
      PORT: '0',
      HOST: '127.0.0.1',
      DEMO_DATA: 'false',
      LOG_LEVEL: 'warn',
      PASSWORD_HASH_COST: 'test',
      WORKER_NICE: '0',
      ...storeEnv,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the portal did not start in time:\n${out}`)), STARTUP_TIMEOUT_MS);
    const check = () => {
      const match = /listening on (http:\/\/[^\s]+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!.replace('localhost', '127.0.0.1'));
      }
    };
    child.stdout.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the portal exited (${code}) before listening:\n${out}`));
    });
  });
  return {
    url,
    child,
    output: () => out,
    async kill() {
      child.kill('SIGKILL');
      await exited(child);
    },
    async stop() {
      child.kill('SIGTERM');
      await exited(child);
    },
  };
}

/**
 * A browser-like client over real HTTP: keeps the session and XSRF cookies, sends the CSRF
 * header, can talk to any of several servers (the cookies are the browser's, not a server's).
 */
export class HttpClient {
  readonly cookies = new Map<string, string>();
  constructor(readonly headers: Record<string, string> = {}) {}

  private remember(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (!value || /max-age=0|expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async request(base: string, method: string, url: string, body?: unknown): Promise<{ status: number; json: () => unknown; text: string }> {
    if (method !== 'GET' && !this.cookies.has(CSRF_COOKIE)) await this.request(base, 'GET', '/sanctum/csrf-cookie');
    const headers: Record<string, string> = { ...this.headers };
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([n, v]) => `${n}=${v}`).join('; ');
    if (method !== 'GET') headers[CSRF_HEADER] = this.cookies.get(CSRF_COOKIE) ?? '';
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(base + url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    this.remember(response);
    const text = await response.text();
    return { status: response.status, text, json: () => JSON.parse(text) as unknown };
  }

  get session(): string | undefined {
    return this.cookies.get(SESSION_COOKIE);
  }
}
