import { afterAll, describe, expect, it } from 'vitest';
import { ApiErrorSchema } from '../../src/shared/api-error.js';
import { createTestApp } from '../support/test-app.js';
import { expectedFor } from '../support/security/access-matrix.js';
import {
  accessLabel,
  agentFor,
  CALLER_KINDS,
  errorShapeProblem,
  namesOtherStudent,
  OTHER_STUDENT,
  OWN_STUDENT,
  routeRows,
  type CallerKind,
} from '../support/security/harness.js';
import { ROUTE_SAMPLES, sampleFor } from '../support/security/route-samples.js';

/**
 * The access matrix, generated from Fastify's route table. Every route × {visitor,
 * student on their own id, student on another student's id, admin} → the status its declared
 * access implies. A route without a row in route-samples.ts fails here, so a new route cannot
 * arrive unchecked; a row whose route is gone fails too, so the table stays true.
 */

const t = await createTestApp();
afterAll(() => t.close());
const rows = routeRows(t.app);

describe('the route table and the sample table agree', () => {
  it('every route declares its access and has a sample', () => {
    const missing = rows.filter((row) => !row.access || !sampleFor(row.method, row.url)).map((row) => `${row.key} (${accessLabel(row.access)})`);
    expect(missing, 'add these routes to tests/support/security/route-samples.ts').toEqual([]);
  });

  it('every sample names a route that exists', () => {
    const keys = new Set(rows.map((row) => row.key));
    expect(Object.keys(ROUTE_SAMPLES).filter((key) => !keys.has(key))).toEqual([]);
  });

  it('covers a meaningful table (every feature registered)', () => {
    expect(rows.length).toBeGreaterThan(60);
    for (const access of ['public', 'visitor', 'signed-in', 'settings.manage', 'student.read of student:userID', 'class.read of class:classId', 'device']) {
      expect(rows.map((row) => accessLabel(row.access))).toContain(access);
    }
  });
});

const cell = async (key: string, caller: CallerKind) => {
  const row = rows.find((r) => r.key === key)!;
  const sample = sampleFor(row.method, row.url)!;
  const expected = expectedFor(row, sample, caller);
  const agent = await agentFor(t.app, t.database.db, caller);
  const request = await sample.request({ db: t.database.db, caller, student: namesOtherStudent(caller) ? OTHER_STUDENT : OWN_STUDENT });
  const response = await agent.request(row.method, request);
  return { row, expected, response };
};

describe.each(rows.filter((row) => row.access && sampleFor(row.method, row.url)).map((row) => [row.key, accessLabel(row.access)] as const))(
  '%s (%s)',
  (key) => {
    it.each(CALLER_KINDS)('%s', async (caller) => {
      const { row, expected, response } = await cell(key, caller);
      const detail = `${caller} ${key} → ${response.statusCode} ${row.method === 'HEAD' ? '' : response.body.slice(0, 300)}`;
      expect(response.statusCode, detail).toBe(expected.status);
      if (row.method !== 'HEAD') {
        expect(errorShapeProblem(response), detail).toBeNull();
        if (expected.code) expect(ApiErrorSchema.parse(response.json()).code, detail).toBe(expected.code);
      }
    });
  },
);
