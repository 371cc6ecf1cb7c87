import fs from 'node:fs';
import net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { sqliteTemplateFile } from '../support/test-database.js';
import { dataDirWith, HttpClient, startPortalProcess, type PortalProcess } from '../support/security/portal-process.js';

/**
 * A stop (SIGTERM, as systemd or `docker stop` sends) ends the process though a browser holds a
 * connection it opened ahead of time and never used: Fastify's close waits for every connection
 * that is not idle, and such a one counted as busy until its idle timeout, five minutes (main.ts
 * closes every connection after a grace period for the requests in flight). SQLite only: the stop
 * is the process's, whatever the engine.
 */

const portals: PortalProcess[] = [];
const dataDirs: string[] = [];
afterAll(async () => {
  for (const portal of portals) if (portal.child.exitCode === null && portal.child.signalCode === null) await portal.kill();
  for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe('stopping the portal', () => {
  // The test's timeout is the bound: well past the grace period, well short of the idle timeout.
  it('exits on SIGTERM while a connection that never sent a request is open, and answers the requests before it', { timeout: 90_000 }, async () => {
    const dataDir = dataDirWith(sqliteTemplateFile());
    dataDirs.push(dataDir);
    const portal = await startPortalProcess({ dataDir });
    portals.push(portal);
    const { hostname, port } = new URL(portal.url);
    expect((await new HttpClient().request(portal.url, 'GET', '/api/health')).status).toBe(200);

    const silent = net.connect(Number(port), hostname);
    await new Promise<void>((resolve, reject) => silent.once('connect', resolve).once('error', reject));
    const closedByServer = new Promise<void>((resolve) => silent.once('close', () => resolve()));
    silent.on('error', () => {});

    await portal.stop();
    expect(portal.child.exitCode).toBe(0);
    await closedByServer;
  });
});
