import http from 'node:http';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../app.js';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/test-database.js';
import { testConfig } from '../../../tests/support/test-config.js';
import { CLIENT_GONE_MESSAGE, loggerOptions } from './logging.js';
import type { FastifyInstance } from 'fastify';

type Line = { level: number; msg?: string; route?: string; req?: { url?: string }; err?: { message?: string } };

/** A log that keeps its lines as objects, as an operator's collector would read them. */
function collectingLog(): { lines: Line[]; stream: { write(line: string): void } } {
  const lines: Line[] = [];
  return { lines, stream: { write: (line: string) => lines.push(JSON.parse(line) as Line) } };
}

function prematureClose(): Error {
  return Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });
}

describe('the log an operator reads', () => {
  it('writes a client hanging up at info and leaves real failures at error', () => {
    const { lines, stream } = collectingLog();
    const log = pino(loggerOptions('info', stream), stream);
    log.error(prematureClose());
    log.error({ err: prematureClose() }, 'request failed');
    // end-of-stream's own error (the pump @fastify/compress uses) has no code.
    log.error(new Error('premature close'));
    log.error(new Error('the disk is full'));
    expect(lines.map((line) => [line.level, line.msg])).toEqual([
      [30, CLIENT_GONE_MESSAGE],
      [30, CLIENT_GONE_MESSAGE],
      [30, CLIENT_GONE_MESSAGE],
      [50, 'the disk is full'],
    ]);
  });

  describe('a request whose client leaves before the answer', () => {
    let database: TestDatabase;
    let app: FastifyInstance;
    const { lines, stream } = collectingLog();

    beforeAll(async () => {
      database = await createTestDatabase();
      app = await buildApp(testConfig(), { db: database.db }, { logger: loggerOptions('info', stream), webRoot: '/nonexistent', mailSender: { start: false } });
      await app.listen({ port: 0, host: '127.0.0.1' });
    });
    afterAll(async () => {
      await app.close();
      await database.destroy();
    });

    it('is one info line naming the route, and no error line', async () => {
      // SQLite's one connection is held while the request waits, so the client is gone before the
      // answer (a compressed list of towns) is written: what a closed tab does to a slow screen.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const holding = database.db.transaction().execute(async () => held);
      try {
        const { port } = app.server.address() as { port: number };
        const request = http.get({ host: '127.0.0.1', port, path: '/api/towns', headers: { 'accept-encoding': 'gzip' } });
        request.on('error', () => undefined);
        const closed = new Promise((resolve) => request.once('close', resolve));
        await vi.waitFor(() => expect(lines.some((line) => line.msg === 'incoming request' && line.req?.url === '/api/towns')).toBe(true), { timeout: 20_000 });
        request.destroy();
        await closed;
      } finally {
        release();
        await holding;
      }
      await vi.waitFor(() => expect(lines.some((line) => line.msg === CLIENT_GONE_MESSAGE)).toBe(true), { timeout: 20_000 });
      const gone = lines.filter((line) => line.msg === CLIENT_GONE_MESSAGE || line.msg === 'stream closed prematurely');
      expect(gone.length).toBeGreaterThan(0);
      expect(gone.every((line) => line.level === 30 && line.route === '/api/towns')).toBe(true);
      expect(lines.filter((line) => line.level >= 40)).toEqual([]);
    });
  });
});
