import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { ApiErrorSchema } from '../../shared/api-error.js';
import { buildApp } from '../app.js';
import { CSRF_COOKIE, CSRF_HEADER } from './csrf.js';
import { serverTimeouts } from './server-timeouts.js';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/test-database.js';
import { testConfig } from '../../../tests/support/test-config.js';

/**
 * The server cuts off what a client drags out (D36), over real sockets: a body
 * trickled a byte at a time, headers that never end, a connection that sends nothing. The
 * timeouts are shortened for the test; the last case checks the ones the portal really runs with.
 */

const SHORT = { headersMs: 600, requestMs: 1_500, idleSocketMs: 60_000, checkEveryMs: 100 };
let database: TestDatabase;
let app: FastifyInstance;
let port: number;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await buildApp(testConfig(), { db: database.db }, { logger: false, webRoot: '/nonexistent', timeouts: SHORT });
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as net.AddressInfo).port;
});
afterAll(async () => {
  await app?.close();
  await database?.destroy();
});

interface Outcome {
  closedAfterMs: number;
  answer: string;
}

/**
 * Opens a socket, sends `head`, then one byte of `drip` every `everyMs` until the server closes
 * the socket or `giveUpMs` passes (then the socket is closed here and the outcome says so).
 */
function dragOut(head: string, drip: string, everyMs: number, giveUpMs: number): Promise<Outcome & { gaveUp: boolean }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const started = Date.now();
    let answer = '';
    let gaveUp = false;
    let dripTimer: NodeJS.Timeout | undefined;
    const giveUp = setTimeout(() => {
      gaveUp = true;
      socket.destroy();
    }, giveUpMs);
    socket.on('connect', () => {
      if (head) socket.write(head);
      if (drip) dripTimer = setInterval(() => socket.write(drip), everyMs);
    });
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('utf8')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(giveUp);
      clearInterval(dripTimer);
      resolve({ closedAfterMs: Date.now() - started, answer, gaveUp });
    });
  });
}

function expectTimeoutAnswer(answer: string): void {
  const [head = '', body = ''] = answer.split('\r\n\r\n');
  expect(head).toMatch(/^HTTP\/1\.1 408 /);
  expect(ApiErrorSchema.parse(JSON.parse(body))).toEqual({ message: 'The request took too long to arrive. Please try again.', code: 'request_timeout' });
}

describe('a client that drags its request out', () => {
  it('is cut off when its body trickles in a byte at a time', async () => {
    // A real sign-in's headers, CSRF token included, so the body is what the server waits for.
    const csrf = await fetch(`http://127.0.0.1:${port}/sanctum/csrf-cookie`);
    const token = /XSRF-TOKEN=([^;]+)/.exec(csrf.headers.getSetCookie().join('\n'))?.[1] ?? '';
    const head =
      'POST /api/login-student HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 4000\r\n' +
      `Cookie: ${CSRF_COOKIE}=${token}\r\n${CSRF_HEADER}: ${token}\r\n\r\n{"student_id":"`;
    const outcome = await dragOut(head, '1', 200, 10_000);
    expect(outcome.gaveUp).toBe(false);
    expect(outcome.closedAfterMs).toBeGreaterThanOrEqual(SHORT.requestMs - 100);
    expect(outcome.closedAfterMs).toBeLessThan(SHORT.requestMs + 1_000);
    expectTimeoutAnswer(outcome.answer);
  });

  it('is cut off when its headers never end', async () => {
    const outcome = await dragOut('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n', 'x', 200, 10_000);
    expect(outcome.gaveUp).toBe(false);
    expect(outcome.closedAfterMs).toBeLessThan(SHORT.requestMs + 1_000);
    expectTimeoutAnswer(outcome.answer);
  });

  it('is cut off when it connects and sends nothing', async () => {
    const outcome = await dragOut('', '', 0, 10_000);
    expect(outcome.gaveUp).toBe(false);
    expect(outcome.closedAfterMs).toBeLessThan(SHORT.headersMs + 1_000);
  });

  it('still serves a client that sends its request at once', async () => {
    const response = await fetch(`http://127.0.0.1:${port}/api/health`);
    expect(response.status).toBe(200);
  });

  it('runs the portal with a request timeout that fits the upload cap on a slow link, and header and idle timeouts', async () => {
    const portal = await buildApp(testConfig(), { db: database.db }, { logger: false, webRoot: '/nonexistent' });
    try {
      await portal.ready();
      const expected = serverTimeouts(testConfig().uploadMaxBytes);
      expect(expected.requestMs).toBe(320_000); // 10 MiB at 256 kbit/s
      expect(portal.server.requestTimeout).toBe(expected.requestMs);
      expect(portal.server.headersTimeout).toBe(30_000);
      expect(portal.server.timeout).toBe(5 * 60_000);
      expect(serverTimeouts(100 * 1024 * 1024).requestMs).toBe(3_200_000);
    } finally {
      await portal.close();
    }
  });
});
