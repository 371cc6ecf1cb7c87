import net from 'node:net';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiErrorSchema } from '../../src/shared/api-error.js';
import { buildApp } from '../../src/server/app.js';
import { createDatabase, type Db } from '../../src/server/db/database.js';
import { registerErrorHandler } from '../../src/server/http/error-handler.js';
import { DEMO_STUDENTS } from '../../src/server/db/demo-data/demo-accounts.js';
import { TestClient } from '../support/test-app.js';
import { testConfig } from '../support/test-config.js';
import { createTestDatabase, currentEngine, type TestDatabase } from '../support/test-database.js';
import { storeFileBody, tinyPdf } from '../support/test-files.js';

/**
 * The portal when its database fails (D36): PostgreSQL unreachable (a closed
 * port, a server that never answers, the connection cut while a query runs), SQLite's disk full
 * and its write lock held elsewhere. Each call answers a clear 503 or 507 `{ message, code }`,
 * never a 500 and never a crashed process; the log names the engine's own error; liveness stays
 * up while readiness says the database is down; and the portal recovers when the database does.
 */

const STATUS_CALL = `/api/user/${DEMO_STUDENTS.registered.student_id}`;
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The app over `db`, its log lines kept. */
async function appOver(db: Db): Promise<{ app: FastifyInstance; log: string[] }> {
  const log: string[] = [];
  const app = await buildApp(testConfig(), { db }, { logger: { level: 'info', stream: { write: (line: string) => log.push(line) } }, webRoot: '/nonexistent' });
  await app.ready();
  cleanups.push(() => app.close());
  return { app, log };
}

async function seededDatabase(): Promise<TestDatabase> {
  const database = await createTestDatabase();
  cleanups.push(() => database.destroy());
  return database;
}

function expectFailure(response: { statusCode: number; body: string; headers: Record<string, unknown> }, status: number, code: string) {
  expect(response.statusCode, response.body).toBe(status);
  const body = ApiErrorSchema.parse(JSON.parse(response.body));
  expect(body.code).toBe(code);
  return body;
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * A TCP proxy to PostgreSQL that the test can cut (close its port and every connection), open
 * again on the same port, or make hold back the server's answers (a query then stays in flight).
 */
class PgProxy {
  private server: net.Server | undefined;
  private readonly sockets = new Set<net.Socket>();
  holdAnswers = false;
  port = 0;

  async open(): Promise<void> {
    this.server = net.createServer((client) => {
      const upstream = net.connect(5432, '127.0.0.1');
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('error', () => undefined);
        socket.on('close', () => this.sockets.delete(socket));
      }
      client.pipe(upstream);
      upstream.on('data', (chunk: Buffer) => {
        if (!this.holdAnswers) client.write(chunk);
      });
      upstream.on('close', () => client.destroy());
      client.on('close', () => upstream.destroy());
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
  }

  async cut(): Promise<void> {
    const closed = new Promise((resolve) => this.server?.close(resolve));
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }

  urlFor(databaseUrl: string): string {
    const url = new URL(databaseUrl);
    url.port = String(this.port);
    return url.toString();
  }
}

describe.runIf(currentEngine() === 'postgres')('PostgreSQL out of reach', () => {
  it('answers 503 with a message on a closed port; liveness stays up, readiness reports the database', async () => {
    const db = createDatabase({ databaseUrl: `postgres://postgres@127.0.0.1:${await closedPort()}/test` });
    cleanups.push(() => db.destroy());
    const { app, log } = await appOver(db);
    const body = expectFailure(await app.inject({ method: 'GET', url: STATUS_CALL }), 503, 'service_unavailable');
    expect(body.message).toBe('The portal cannot reach its database right now. Please try again in a few minutes.');
    const ready = await app.inject({ method: 'GET', url: '/api/health/ready' });
    expectFailure(ready, 503, 'service_unavailable');
    expect(ready.headers['retry-after']).toBe('30');
    expect((await app.inject({ method: 'GET', url: '/api/health' })).json()).toEqual({ ok: true });
    expect(log.join('\n')).toContain('ECONNREFUSED');
  });

  it('gives up on a server that accepts the connection and never answers, within the connect timeout', async () => {
    const silent: net.Socket[] = [];
    const blackHole = net.createServer((socket) => silent.push(socket));
    await new Promise<void>((resolve) => blackHole.listen(0, '127.0.0.1', resolve));
    cleanups.push(async () => {
      for (const socket of silent) socket.destroy();
      await new Promise((resolve) => blackHole.close(resolve));
    });
    const db = createDatabase({ databaseUrl: `postgres://postgres@127.0.0.1:${(blackHole.address() as net.AddressInfo).port}/test` });
    cleanups.push(() => db.destroy());
    const { app } = await appOver(db);
    const started = Date.now();
    const answer = await Promise.race([
      app.inject({ method: 'GET', url: STATUS_CALL }),
      new Promise<'still waiting'>((resolve) => setTimeout(() => resolve('still waiting'), 15_000)),
    ]);
    expect(answer).not.toBe('still waiting');
    expectFailure(answer as Awaited<ReturnType<typeof app.inject>>, 503, 'service_unavailable');
    expect(Date.now() - started).toBeLessThan(8_000);
  });

  it('answers 503 when the connection is cut under a running query, keeps the process up, and recovers', async () => {
    const database = await seededDatabase();
    const proxy = new PgProxy();
    await proxy.open();
    cleanups.push(() => proxy.cut());
    const db = createDatabase({ databaseUrl: proxy.urlFor(database.location.databaseUrl!) });
    cleanups.push(() => db.destroy());
    const { app } = await appOver(db);
    expect((await app.inject({ method: 'GET', url: STATUS_CALL })).statusCode).toBe(200);

    // The query goes out and its answer is held back; then the connection is cut under it.
    proxy.holdAnswers = true;
    const inFlight = app.inject({ method: 'GET', url: STATUS_CALL });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await proxy.cut();
    expectFailure(await inFlight, 503, 'service_unavailable');

    // While the database is away every call says so, and readiness does too.
    expectFailure(await app.inject({ method: 'GET', url: STATUS_CALL }), 503, 'service_unavailable');
    expectFailure(await app.inject({ method: 'GET', url: '/api/health/ready' }), 503, 'service_unavailable');

    // Back on the same address: the same process serves again, signed-in work included.
    proxy.holdAnswers = false;
    await proxy.open();
    expect((await app.inject({ method: 'GET', url: '/api/health/ready' })).json()).toEqual({ ok: true, database: 'ok' });
    const student = await new TestClient(app, '10.14.10.1').signInStudent(DEMO_STUDENTS.registered.student_id, DEMO_STUDENTS.registered.password);
    expect((await student.get(`/api/student-record/${DEMO_STUDENTS.registered.student_id}`)).statusCode).toBe(200);
  });

  it('runs every connection with a statement timeout and an idle-in-transaction timeout', async () => {
    const database = await seededDatabase();
    const { rows } = await sql<{ statement: string; idle: string }>`
      select current_setting('statement_timeout') as statement, current_setting('idle_in_transaction_session_timeout') as idle`.execute(database.db);
    expect(rows[0]).toEqual({ statement: '30s', idle: '5min' });
  });
});

describe.runIf(currentEngine() === 'sqlite')('SQLite out of room or locked', () => {
  it('answers 507 naming the full disk, logs SQLITE_FULL rather than the rollback, and stores nothing', async () => {
    const database = await seededDatabase();
    const { app, log } = await appOver(database.db);
    const student = await new TestClient(app, '10.14.10.2').signInStudent(DEMO_STUDENTS.inProgress.student_id, DEMO_STUDENTS.inProgress.password);
    const documentsBefore = await database.db.selectFrom('documents').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    // The database may not grow by a page: SQLite answers SQLITE_FULL, as on a full disk.
    const { rows } = await sql<{ page_count: number }>`pragma page_count`.execute(database.db);
    await sql.raw(`pragma max_page_count = ${rows[0]!.page_count}`).execute(database.db);
    cleanups.push(async () => {
      await sql`pragma max_page_count = 4294967294`.execute(database.db);
    });

    const file = { filename: 'birth-certificate.pdf', bytes: Buffer.concat([await tinyPdf(), Buffer.alloc(64 * 1024, 0x20)]), contentType: 'application/pdf' };
    const { body, headers } = storeFileBody(DEMO_STUDENTS.inProgress.student_id, 'birth_certificate', file);
    const answer = await student.post('/api/store-file', body, { headers });
    const error = expectFailure(answer, 507, 'insufficient_storage');
    expect(error.message).toBe('The server’s disk is full, so nothing can be saved. Please tell the school office.');
    const written = log.join('\n');
    expect(written).toContain('SQLITE_FULL');
    expect(written).toContain('database or disk is full');
    expect(written).not.toMatch(/cannot rollback|no such savepoint/);

    await sql`pragma max_page_count = 4294967294`.execute(database.db);
    const documentsAfter = await database.db.selectFrom('documents').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(documentsAfter.n)).toBe(Number(documentsBefore.n));
    // With room again, the same upload is stored.
    const again = storeFileBody(DEMO_STUDENTS.inProgress.student_id, 'birth_certificate', file);
    expect((await student.post('/api/store-file', again.body, { headers: again.headers })).statusCode).toBe(200);
  });

  it('answers 503 "busy" when another process holds the write lock past the busy timeout', async () => {
    const database = await seededDatabase();
    const { app } = await appOver(database.db);
    const student = await new TestClient(app, '10.14.10.3').signInStudent(DEMO_STUDENTS.inProgress.student_id, DEMO_STUDENTS.inProgress.password);
    const other = new SQLite(database.location.sqliteFile);
    other.exec('begin immediate');
    cleanups.push(() => {
      if (other.inTransaction) other.exec('rollback');
      other.close();
      return Promise.resolve();
    });
    const answer = await student.post('/api/student', { id: DEMO_STUDENTS.inProgress.student_id, middle_name: 'Joel' });
    const body = expectFailure(answer, 503, 'service_unavailable');
    expect(body.message).toBe('The database is busy. Please try again in a moment.');
    other.exec('rollback');
    expect((await student.post('/api/student', { id: DEMO_STUDENTS.inProgress.student_id, middle_name: 'Joel' })).statusCode).toBe(200);
  });
});

describe('two writes that race past a service’s own check', () => {
  it('a unique clash answers 409 with a reload message, logs the index at warn, and writes nothing', async () => {
    const database = await seededDatabase();
    const db = database.db;
    const log: string[] = [];
    const app = Fastify({ logger: { level: 'info', stream: { write: (line: string) => log.push(line) } } });
    registerErrorHandler(app);
    // The second of two inserts of one student ID inside one transaction, as two finalises or two
    // imports numbering the same students would meet it.
    app.post('/race', async () => {
      await db.transaction().execute(async (trx) => {
        const at = new Date().toISOString();
        await trx.insertInto('students').values({ id: '29990001', first_name: 'Race', last_name: 'One', created_at: at, updated_at: at }).execute();
        await trx.insertInto('students').values({ id: '29990001', first_name: 'Race', last_name: 'Two', created_at: at, updated_at: at }).execute();
      });
      return { ok: true };
    });
    cleanups.push(() => app.close());
    const answer = await app.inject({ method: 'POST', url: '/race' });
    const body = expectFailure(answer, 409, 'conflict');
    expect(body.message).toMatch(/at the same moment .* nothing was saved\. Reload/);
    expect(body.message).not.toMatch(/students|unique|constraint|29990001/i);
    expect(await db.selectFrom('students').select('id').where('id', '=', '29990001').execute()).toEqual([]);
    const line = log.map((text) => JSON.parse(text) as { level: number; msg: string; database?: string }).find((entry) => entry.msg === 'database duplicate');
    expect(line).toMatchObject({ level: 40, database: 'duplicate' });
  });
});
