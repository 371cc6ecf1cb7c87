import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../support/test-app.js';
import { callableRoutes, cellsToRun, declaredAction, MATRIX_PARTS, okFor } from '../support/security/access-matrix.js';
import { accessLabel, routeRows } from '../support/security/harness.js';
import { ROUTE_SAMPLES, sampleFor } from '../support/security/route-samples.js';
import { ACCESS_SECTIONS, ACCESS_TABLE, accessRowFor, TABLE_CALLERS, type AccessSectionName } from './access-table.js';

/**
 * The access matrix's bookkeeping: the route table, the reviewed access table
 * (tests/security/access-table.ts) and the samples agree, and each route declares the action its
 * row names. The cells themselves run in access-matrix.{records,school,accounts}.test.ts. A new
 * route without a row fails here, so it cannot arrive unchecked; a row whose route is gone fails
 * too, so the table stays true.
 */

const t = await createTestApp();
afterAll(() => t.close());
const rows = routeRows(t.app);

describe('the route table and the access table agree', () => {
  it('every route has a row', () => {
    const missing = rows.filter((row) => !accessRowFor(row.method, row.url)).map((row) => `${row.key} (declares ${accessLabel(row.access)})`);
    expect(missing, 'add a row to tests/security/access-table.ts for each of these routes').toEqual([]);
  });

  it('every row names a route that exists', () => {
    const keys = new Set(rows.map((row) => row.key));
    expect(Object.keys(ACCESS_TABLE).filter((key) => !keys.has(key)), 'these rows of tests/security/access-table.ts name no route').toEqual([]);
  });

  it('every route declares the action its row names', () => {
    const wrong = rows.flatMap((row) => {
      const expected = accessRowFor(row.method, row.url)?.action;
      const declared = declaredAction(row.access);
      return expected !== undefined && declared !== expected ? [`${row.key} declares ${declared}, the table says ${expected}`] : [];
    });
    expect(wrong, "config.access disagrees with tests/security/access-table.ts: fix the route, or the table if the school's rule changed").toEqual([]);
  });

  it('covers a meaningful table (every feature registered)', () => {
    expect(rows.length).toBeGreaterThan(60);
    for (const action of ['public', 'visitor', 'signed-in', 'family', 'device', 'settings.manage', 'student.read', 'class.read']) {
      expect(rows.map((row) => declaredAction(row.access))).toContain(action);
    }
  });
});

describe('the route table and the samples agree', () => {
  it('every route has a sample', () => {
    const missing = rows.filter((row) => !sampleFor(row.method, row.url)).map((row) => row.key);
    expect(missing, 'add these routes to tests/support/security/route-samples.ts').toEqual([]);
  });

  it('every sample names a route that exists', () => {
    const keys = new Set(rows.map((row) => row.key));
    expect(Object.keys(ROUTE_SAMPLES).filter((key) => !keys.has(key))).toEqual([]);
  });

  it("every allowed cell expects the sample's success", () => {
    const contradictions = callableRoutes(rows).flatMap(({ route, row, sample }) =>
      TABLE_CALLERS.filter((caller) => row.callers[caller] === 'allowed' && okFor(sample, caller) >= 400).map(
        (caller) => `${route.key}: the table allows ${caller}, the sample expects ${okFor(sample, caller)}`,
      ),
    );
    expect(contradictions).toEqual([]);
  });
});

describe('the parts of the matrix', () => {
  it('run every feature of the table exactly once', () => {
    const named = Object.values(MATRIX_PARTS).flat();
    expect([...named].sort()).toEqual((Object.keys(ACCESS_SECTIONS) as AccessSectionName[]).sort());
  });

  it("PostgreSQL's subset calls every route, and every caller against every action", () => {
    const routes = callableRoutes(rows);
    const cells = cellsToRun(routes, 'postgres');
    expect(routes.filter(({ route }) => (cells.get(route.key)?.size ?? 0) === 0).map(({ route }) => route.key)).toEqual([]);
    const missed = [...new Set(routes.map(({ row }) => row.action))].flatMap((action) =>
      TABLE_CALLERS.filter((caller) => !routes.some(({ route, row }) => row.action === action && cells.get(route.key)!.has(caller))).map((caller) => `${action} × ${caller}`),
    );
    expect(missed).toEqual([]);
    // Each route meets someone the table lets in and someone it keeps out, where the row has both.
    const oneSided = routes.filter(({ route, row }) => {
      const outcomes = new Set([...cells.get(route.key)!].map((caller) => row.callers[caller] === 'allowed'));
      const possible = new Set(TABLE_CALLERS.map((caller) => row.callers[caller] === 'allowed'));
      return outcomes.size < possible.size;
    });
    expect(oneSided.map(({ route }) => route.key)).toEqual([]);
  });
});
