import { afterAll, describe, expect, it } from 'vitest';
import { ApiErrorSchema } from '../../../src/shared/api-error.js';
import type { Access } from '../../../src/server/http/access.js';
import { ACCESS_SECTIONS, accessRowFor, TABLE_CALLERS, type AccessRow, type AccessSectionName, type TableCaller } from '../../security/access-table.js';
import { createTestApp } from '../test-app.js';
import { currentEngine, type Engine } from '../test-database.js';
import { agentFor, CALLER_KINDS, errorShapeProblem, isParentCaller, isStaffCaller, namesOtherStudent, OTHER_STUDENT, OWN_STUDENT, routeRows, type CallerKind, type RouteRow } from './harness.js';
import { sampleFor, type RouteSample } from './route-samples.js';

/**
 * The access matrix: every route × every kind of caller, the running app's answer against the
 * reviewed table in tests/security/access-table.ts. The table says allowed or refused; the route's
 * sample (route-samples.ts) says how to make the call and what status an allowed call answers.
 */

/** What one cell of the matrix expects: a status, and for refusals the error code. */
export interface Expectation {
  status: number;
  code?: 'unauthenticated' | 'forbidden';
}

/** The status of an allowed call, from the sample: one number, or one per group of callers. */
export function okFor(sample: RouteSample, caller: CallerKind): number {
  if (typeof sample.ok === 'number') return sample.ok;
  if (isParentCaller(caller) && sample.ok.guardian !== undefined) return sample.ok.guardian;
  const group = caller === 'visitor' ? 'visitor' : isStaffCaller(caller) ? 'staff' : 'student';
  const status = sample.ok[group];
  if (status === undefined) throw new Error(`the sample gives no ok status for ${group}`);
  return status;
}

/** What the table says a caller gets on a route. */
export function expectationOf(row: AccessRow, sample: RouteSample, caller: CallerKind): Expectation {
  const outcome = row.callers[caller];
  if (outcome === 'unauthenticated') return { status: 401, code: 'unauthenticated' };
  if (outcome === 'forbidden') return { status: 403, code: 'forbidden' };
  return { status: okFor(sample, caller) };
}

/** The action a route declares, in the table's words: the keyword, or the school or student action. */
export function declaredAction(access: Access | undefined): string {
  if (access === undefined) return 'undeclared';
  return typeof access === 'string' ? access : access.can;
}

/**
 * The matrix runs in three files that vitest runs side by side, each on its own copy of the
 * database; a feature stays whole in one part, so samples that set up state for the next route
 * (the year rollover and its undo) run in their usual order.
 */
export const MATRIX_PARTS: Record<'records' | 'school' | 'accounts', readonly AccessSectionName[]> = {
  records: ['REGISTRATION', 'DOCUMENTS', 'REPORTS', 'ATTENDANCE', 'ABSENCE_NOTES'],
  school: ['STUDENTS', 'INTAKE', 'ENROLMENT', 'STAFF', 'REVIEW', 'RE_REGISTRATION', 'OUTBOX', 'ROLLOVER', 'PRIVACY'],
  accounts: ['PUBLIC', 'SIGN_IN', 'SECOND_FACTOR', 'LOOKUPS', 'FAMILY', 'NOTICES'],
};
export type MatrixPart = keyof typeof MATRIX_PARTS;

/** The routes (with their table row and sample) the matrix can call: those with both. */
export function callableRoutes(rows: readonly RouteRow[]): { route: RouteRow; row: AccessRow; sample: RouteSample }[] {
  return rows.flatMap((route) => {
    const row = accessRowFor(route.method, route.url);
    const sample = sampleFor(route.method, route.url);
    return row && sample ? [{ route, row, sample }] : [];
  });
}

/**
 * The cells to call, per route key. SQLite runs every cell. PostgreSQL runs a covering subset,
 * because the SQL each route runs is already proven on both engines by its feature's tests and
 * the full sweep there adds minutes, not coverage of the access rules. The subset, for the route
 * at index i of the route table (callers in the table's column order, visitor … admin):
 * 1. the callers at columns (i + 3k) mod 10 for k = 0, 1, 2;
 * 2. the first allowed and the first refused caller counting from column i mod 10, when the row
 *    has one, so every route is seen both letting someone in and keeping someone out;
 * 3. for each action in the table and each caller not yet run against it, that caller on the
 *    action's route at position (column mod the action's route count), so every kind of caller
 *    meets every kind of access at least once.
 * The rule depends on nothing but the route table and the access table, so it picks the same
 * cells on every run.
 */
export function cellsToRun(routes: readonly { route: RouteRow; row: AccessRow }[], engine: Engine): Map<string, Set<CallerKind>> {
  const cells = new Map<string, Set<CallerKind>>();
  if (engine === 'sqlite') {
    for (const { route } of routes) cells.set(route.key, new Set(CALLER_KINDS));
    return cells;
  }
  const columns = TABLE_CALLERS.length;
  routes.forEach(({ route, row }, i) => {
    const chosen = new Set<TableCaller>([0, 1, 2].map((k) => TABLE_CALLERS[(i + 3 * k) % columns]!));
    const rotated = TABLE_CALLERS.map((_, j) => TABLE_CALLERS[(i + j) % columns]!);
    const allowed = rotated.find((caller) => row.callers[caller] === 'allowed');
    const refused = rotated.find((caller) => row.callers[caller] !== 'allowed');
    if (allowed) chosen.add(allowed);
    if (refused) chosen.add(refused);
    cells.set(route.key, chosen);
  });
  const byAction = new Map<string, string[]>();
  for (const { route, row } of routes) byAction.set(row.action, [...(byAction.get(row.action) ?? []), route.key]);
  for (const keys of byAction.values()) {
    TABLE_CALLERS.forEach((caller, column) => {
      if (keys.some((key) => cells.get(key)!.has(caller))) return;
      cells.get(keys[column % keys.length]!)!.add(caller);
    });
  }
  return cells;
}

/**
 * Registers one part of the matrix: a test per route and caller that calls the app and compares
 * the answer with the table (status, the error code of a refusal, the error shape). The app runs
 * on a fresh copy of the seeded database. The declared actions are compared with the table in
 * access-matrix.test.ts, once for every route.
 */
export async function describeAccessMatrixPart(part: MatrixPart): Promise<void> {
  const t = await createTestApp();
  afterAll(() => t.close());
  const inPart = new Set(MATRIX_PARTS[part].flatMap((name) => Object.keys(ACCESS_SECTIONS[name])));
  const all = callableRoutes(routeRows(t.app));
  const cells = cellsToRun(all, currentEngine());
  const mine = all.filter(({ route }) => inPart.has(route.key) || (route.method === 'HEAD' && inPart.has(`GET ${route.url}`)));
  expect(mine.length, `no route of part ${part} found`).toBeGreaterThan(0);

  describe.each(mine.map((entry) => [entry.route.key, entry] as const))('%s', (_key, { route, row, sample }) => {
    const callers = CALLER_KINDS.filter((caller) => cells.get(route.key)!.has(caller));
    it.each(callers)('%s', async (caller) => {
      const expected = expectationOf(row, sample, caller);
      const agent = await agentFor(t.app, t.database.db, caller);
      const request = await sample.request({ db: t.database.db, caller, student: namesOtherStudent(caller) ? OTHER_STUDENT : OWN_STUDENT });
      const response = await agent.request(route.method, request);
      const said = row.callers[caller] === 'allowed' ? 'allowed' : `refused (${expected.status})`;
      const detail = `${caller} ${route.key}: the table says ${said}; the app answered ${response.statusCode} ${route.method === 'HEAD' ? '' : response.body.slice(0, 300)}`;
      expect(response.statusCode, detail).toBe(expected.status);
      if (route.method !== 'HEAD') {
        expect(errorShapeProblem(response), detail).toBeNull();
        if (expected.code) expect(ApiErrorSchema.parse(response.json()).code, detail).toBe(expected.code);
      }
    });
  });
}
