import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, TestClient, type TestApp } from '../../../tests/support/test-app.js';
import { RATE_LIMIT_KEEP_MS, RATE_LIMIT_PRUNE_INTERVAL_MS } from './rate-limit-pruning.js';
import { hitRateLimit } from './rate-limit.repository.js';

/**
 * Every failed sign-in from a new address adds a `rate_limits` row. The app prunes ended windows
 * on a schedule (an unref'd hourly timer), so over days of such traffic the table holds only the
 * windows that still count.
 */
describe('rate limit windows are pruned on a schedule', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Only the app's interval is faked: the database, inject and vi.waitFor keep real time.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
    vi.useRealTimers();
  });

  const rowCount = async () =>
    Number((await t.database.db.selectFrom('rate_limits').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

  it('the table stops growing: each hour the windows that ended long ago go, the live ones stay', async () => {
    // Live windows: real failed sign-ins now (address and account counters).
    const visitor = new TestClient(t.app, '10.77.0.1');
    for (let i = 0; i < 3; i++) {
      const response = await visitor.post('/api/login-student', { student_id: '20260001', password: `wrong-${i}` });
      expect(response.statusCode).toBe(401);
    }
    const live = await rowCount();
    expect(live).toBeGreaterThan(0);

    const rule = { limit: 30, windowMs: 15 * 60_000 };
    const counts: number[] = [];
    for (let hour = 0; hour < 6; hour++) {
      // An hour of failed attempts from 40 new addresses, whose windows ended more than a day ago.
      const longAgo = Date.now() - RATE_LIMIT_KEEP_MS - (hour + 1) * 60_000;
      for (let i = 0; i < 40; i++) await hitRateLimit(t.database.db, `sign-in:ip:10.88.${hour}.${i}`, rule, longAgo);
      expect(await rowCount()).toBe(live + 40);
      vi.advanceTimersByTime(RATE_LIMIT_PRUNE_INTERVAL_MS);
      await vi.waitFor(async () => expect(await rowCount()).toBe(live), { timeout: 5_000 });
      counts.push(await rowCount());
    }
    expect(counts).toEqual(Array.from({ length: 6 }, () => live));
  });
});
