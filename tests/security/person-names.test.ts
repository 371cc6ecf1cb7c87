import crypto from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { PERSON_NAME_MESSAGES } from '../../src/shared/person-name.js';
import { createTestApp, expectError } from '../support/test-app.js';
import { agentFor, OWN_STUDENT } from '../support/security/harness.js';

/**
 * Names that read as someone else's, or as the school's own words (docs/security.md): every
 * person's name the portal keeps — a student's, a parent's on the record, a family account's, a
 * staff account's — refuses text-direction controls, line breaks and web addresses by one rule
 * (src/shared/person-name.ts). Each kind of name is sent through its own route and must be refused
 * with the rule's message on the field, nothing stored.
 */

const t = await createTestApp();
afterAll(() => t.close());
const db = t.database.db;

const BAD_NAMES: [string, string][] = [
  ['Ann\u202Eeve', PERSON_NAME_MESSAGES.bidiControl],
  ['Ann\u2067eve', PERSON_NAME_MESSAGES.bidiControl],
  ['Ann\nYour account is suspended', PERSON_NAME_MESSAGES.lineBreak],
  ['Ann\u2028Smith', PERSON_NAME_MESSAGES.lineBreak],
  ['Ann https://evil.example/pay', PERSON_NAME_MESSAGES.link],
  ['Ann www.pay-fees.tt', PERSON_NAME_MESSAGES.link],
  ['Ann pay-fees.com', PERSON_NAME_MESSAGES.link],
];

const unique = () => crypto.randomBytes(4).toString('hex');

describe('one rule for every person’s name', () => {
  it('a staff account’s name refuses each, on add and on change', async () => {
    const admin = await agentFor(t.app, db, 'admin');
    for (const [name, message] of BAD_NAMES) {
      const username = `names.${unique()}`;
      const added = await admin.request('POST', { url: '/api/staff', body: { username, name, role: 'office' } });
      expect(expectError(added, 400).errors?.name, JSON.stringify(name)).toContain(message);
      expect(await db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirst()).toBeUndefined();
    }
    const good = await admin.request('POST', { url: '/api/staff', body: { username: `names.${unique()}`, name: "Mrs. O'Brien-St. John", role: 'office' } });
    expect(good.statusCode, good.body).toBe(201);
    const id = good.json<{ id: number }>().id;
    const changed = await admin.request('PATCH', { url: `/api/staff/${id}`, body: { name: 'Office\r\nPrincipal' } });
    expect(expectError(changed, 400).errors?.name).toContain(PERSON_NAME_MESSAGES.lineBreak);
    const row = await db.selectFrom('users').select('display_name').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.display_name).toBe("Mrs. O'Brien-St. John");
  });

  it('a family account’s name refuses each at sign-up, and nothing is mailed', async () => {
    const visitor = await agentFor(t.app, db, 'visitor');
    const before = await db.selectFrom('outbox').select(({ fn }) => fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    for (const [name, message] of BAD_NAMES) {
      const response = await visitor.request('POST', {
        url: '/api/family/register',
        body: { name, email: `names.${unique()}@example.com`, password: 'a sample family passphrase' },
      });
      expect(expectError(response, 400).errors?.name, JSON.stringify(name)).toContain(message);
    }
    const after = await db.selectFrom('outbox').select(({ fn }) => fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('a student’s and a parent’s name on the record refuse each, and the record keeps its value', async () => {
    const student = await agentFor(t.app, db, 'own');
    const before = await db.selectFrom('students').select(['first_name', 'mother_name']).where('id', '=', OWN_STUDENT).executeTakeFirstOrThrow();
    for (const field of ['first_name', 'mother_name'] as const) {
      for (const [name, message] of BAD_NAMES) {
        const response = await student.request('POST', { url: '/api/student', body: { id: OWN_STUDENT, [field]: name } });
        expect(expectError(response, 400).errors?.[field], `${field} ${JSON.stringify(name)}`).toContain(message);
      }
    }
    const after = await db.selectFrom('students').select(['first_name', 'mother_name']).where('id', '=', OWN_STUDENT).executeTakeFirstOrThrow();
    expect(after).toEqual(before);
  });
});
