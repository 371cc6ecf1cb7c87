import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TestClient, type TestApp } from '../../../tests/support/test-app.js';
import { LOOKUPS, LOOKUP_NAMES } from '../../shared/lookups.schemas.js';
import { HOUSES } from '../db/reference-data.js';
import { listUndeclaredRoutes } from '../http/access.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('lookup lists (requirements R4)', () => {
  it.each(LOOKUP_NAMES)('%s: answers its list to anyone, cacheable, with an ETag', async (name) => {
    const lookup = LOOKUPS[name];
    const response = await new TestClient(t.app).get(lookup.path);
    expect(response.statusCode).toBe(200);
    const rows = lookup.schema.parse(response.json());
    expect(rows.length).toBeGreaterThan(0);
    expect(response.headers['cache-control']).toBe('public, max-age=3600');
    const etag = String(response.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);

    const again = await t.app.inject({ method: 'GET', url: lookup.path, headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const stale = await t.app.inject({ method: 'GET', url: lookup.path, headers: { 'if-none-match': '"something-else"' } });
    expect(stale.statusCode).toBe(200);
  });

  it('serves the seeded reference values', async () => {
    const houses = LOOKUPS.houses.schema.parse((await t.app.inject({ method: 'GET', url: '/api/houses' })).json());
    expect(houses.map((h) => h.id).sort()).toEqual(HOUSES.map((h) => h.id).sort());
    const religions = LOOKUPS.religions.schema.parse((await t.app.inject({ method: 'GET', url: '/api/religions' })).json());
    expect(religions).toContainEqual({ code: 'RC', religion: 'Roman Catholic' });
    const classes = LOOKUPS.formClasses.schema.parse((await t.app.inject({ method: 'GET', url: '/api/form-classes-list' })).json());
    expect(classes[0]).toEqual({ id: '1A', form_level: 1 });
  });

  it('changes the ETag when the list changes', async () => {
    const first = await t.app.inject({ method: 'GET', url: '/api/towns' });
    await t.database.db.insertInto('towns').values({ town_name: 'Zzz Test Town', created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' }).execute();
    const second = await t.app.inject({ method: 'GET', url: '/api/towns', headers: { 'if-none-match': String(first.headers.etag) } });
    expect(second.statusCode).toBe(200);
    expect(second.headers.etag).not.toBe(first.headers.etag);
  });

  it('declares access on every route', () => {
    expect(listUndeclaredRoutes(t.app.routeTable)).toEqual([]);
  });
});
