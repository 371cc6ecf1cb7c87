import { createHash } from 'node:crypto';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TestClient, type TestApp } from '../../../tests/support/test-app.js';
import { ApiErrorSchema } from '../../shared/api-error.js';
import {
  CreatedScannerDeviceSchema,
  ImportResultSchema,
  ScanResultSchema,
  ScannerDeviceSchema,
  SchoolHolidaySchema,
  StudentAttendanceSchema,
} from '../../shared/attendance.schemas.js';
import { schoolToday } from '../../shared/dates.js';
import { addDays, isWeekday } from '../../shared/school-days.js';
import { DEMO_STUDENTS } from '../db/demo-data/demo-accounts.js';
import { DEMO_SCHOOL_HOLIDAYS, findDemoAttendanceTerm } from '../db/demo-data/demo-calendar.js';

/**
 * The gate scanners and the admin's import: device keys made and revoked by an
 * administrator, scans stored idempotently and in any order, records recomputed from them,
 * bell time and holidays, and the all-or-nothing import of CSV and XLSX files.
 */

const { registered, inProgress } = DEMO_STUDENTS;

let t: TestApp;
let ipCounter = 0;
const client = () => new TestClient(t.app, `10.7.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`);
let admin: TestClient;
let student: TestClient;
let deviceKey: string;

const today = schoolToday();
const term = findDemoAttendanceTerm(today)!;
/** The last day the current term counts: scans on it show on the student's screen. */
const lastCounted = today < term.end_date ? today : term.end_date;
const holidays = new Set(DEMO_SCHOOL_HOLIDAYS.map((h) => h.date));
/** School days of the current term so far, newest first, for days the tests may overwrite. */
const schoolDays: string[] = [];
for (let day = lastCounted; day >= term.start_date; day = addDays(day, -1)) {
  if (isWeekday(day) && !holidays.has(day)) schoolDays.push(day);
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await client().signInAdmin();
  student = await client().signInStudent(registered.student_id, registered.password);
  const created = await admin.post('/api/scanner-devices', { name: 'Main gate' });
  deviceKey = CreatedScannerDeviceSchema.parse(created.json()).key;
});
afterAll(async () => {
  await t.close();
});

function expectError(response: { statusCode: number; json(): unknown }, status: number, code?: string) {
  expect(response.statusCode).toBe(status);
  const body = ApiErrorSchema.parse(response.json());
  if (code) expect(body.code).toBe(code);
  return body;
}

/** A gate's call: no session, no CSRF, only the device key. */
function scan(body: unknown, key: string | null = deviceKey) {
  return t.app.inject({
    method: 'POST',
    url: '/api/attendance/scans',
    payload: body as object,
    headers: key === null ? {} : { authorization: `Bearer ${key}` },
    remoteAddress: '10.7.250.1',
  });
}

/** Forgets a student's day entirely, so a test starts that day from nothing. */
async function clearDay(studentId: string, date: string) {
  await t.database.db.deleteFrom('attendance_records').where('student_id', '=', studentId).where('date_scanned', '=', date).execute();
  await t.database.db.deleteFrom('attendance_scans').where('student_id', '=', studentId).where('scanned_date', '=', date).execute();
}

async function recordOf(studentId: string, date: string) {
  return t.database.db
    .selectFrom('attendance_records')
    .select(['attendance_am', 'attendance_pm', 'time_in', 'time_out', 'late', 'time_scanned_in', 'time_scanned_out'])
    .where('student_id', '=', studentId)
    .where('date_scanned', '=', date)
    .executeTakeFirst();
}

async function countScans(): Promise<number> {
  const row = await t.database.db.selectFrom('attendance_scans').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A one-file multipart/form-data body, as a browser's FormData sends it. */
function multipart(fileName: string, content: Buffer | string, type: string) {
  const boundary = `----portal-test-${Math.random().toString(16).slice(2)}`;
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: ${type}\r\n\r\n`),
    Buffer.isBuffer(content) ? content : Buffer.from(content),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe('scanner devices (admin)', () => {
  it('refuses a visitor (401) and a student (403)', async () => {
    expectError(await client().get('/api/scanner-devices'), 401);
    expectError(await student.get('/api/scanner-devices'), 403, 'forbidden');
    expectError(await student.post('/api/scanner-devices', { name: 'Back gate' }), 403, 'forbidden');
    expectError(await student.delete('/api/scanner-devices/1'), 403, 'forbidden');
  });

  it('creates a device whose key is shown once and stored only as its sha256', async () => {
    const response = await admin.post('/api/scanner-devices', { name: '  Back gate ' });
    expect(response.statusCode).toBe(201);
    const device = CreatedScannerDeviceSchema.parse(response.json());
    expect(device.name).toBe('Back gate');
    expect(device.key).toMatch(/^gsk_[\w-]{43}$/);
    const row = await t.database.db.selectFrom('scanner_devices').selectAll().where('id', '=', device.id).executeTakeFirstOrThrow();
    expect(row.key_hash).toBe(createHash('sha256').update(device.key).digest('hex'));
    const list = await admin.get('/api/scanner-devices');
    expect(list.body).not.toContain(device.key);
    expect(ScannerDeviceSchema.array().parse(list.json()).map((d) => d.name)).toContain('Back gate');
    const audit = await t.database.db.selectFrom('audit_log').selectAll().where('entity', '=', 'scanner_device').where('entity_id', '=', String(device.id)).execute();
    expect(audit.map((a) => a.action)).toEqual(['create']);
  });

  it('refuses a blank or over-long name (400) and an unknown device (404)', async () => {
    expectError(await admin.post('/api/scanner-devices', { name: '   ' }), 400, 'validation_failed');
    expectError(await admin.post('/api/scanner-devices', { name: 'x'.repeat(61) }), 400, 'validation_failed');
    expectError(await admin.delete('/api/scanner-devices/99999'), 404, 'not_found');
    expectError(await admin.delete('/api/scanner-devices/abc'), 400, 'validation_failed');
  });
});

describe('POST /api/attendance/scans (gate scanners)', () => {
  it('refuses a call without a key, with a wrong key, and with a session instead of a key (401)', async () => {
    const body = { student_id: registered.student_id, date: lastCounted, time: '07:00' };
    const before = await countScans();
    expectError(await scan(body, null), 401, 'unauthenticated');
    expectError(await scan(body, 'gsk_not-a-key'), 401, 'unauthenticated');
    expectError(await admin.post('/api/attendance/scans', body), 401, 'unauthenticated');
    expect(await countScans()).toBe(before);
  });

  it('refuses a revoked key at once (401), and revoking twice changes nothing', async () => {
    const created = CreatedScannerDeviceSchema.parse((await admin.post('/api/scanner-devices', { name: 'Old reader' })).json());
    const body = { student_id: inProgress.student_id, date: lastCounted, time: '06:31' };
    await clearDay(inProgress.student_id, lastCounted);
    expect((await scan(body, created.key)).statusCode).toBe(200);
    const revoked = await admin.delete(`/api/scanner-devices/${created.id}`);
    expect(revoked.statusCode).toBe(200);
    const first = ScannerDeviceSchema.parse(revoked.json()).revoked_at;
    expect(first).not.toBeNull();
    expect(ScannerDeviceSchema.parse((await admin.delete(`/api/scanner-devices/${created.id}`)).json()).revoked_at).toBe(first);
    const before = await countScans();
    expectError(await scan({ ...body, time: '15:10' }, created.key), 401, 'unauthenticated');
    expect(await countScans()).toBe(before);
    // The device's first call was seen.
    const row = await t.database.db.selectFrom('scanner_devices').select('last_seen_at').where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(row.last_seen_at).not.toBeNull();
  });

  it('refuses malformed scans with 400 and stores none of the batch', async () => {
    const before = await countScans();
    const bad = await scan({
      scans: [
        { student_id: registered.student_id, date: lastCounted, time: '07:00' },
        { student_id: registered.student_id, date: 'yesterday', time: '25:00' },
      ],
    });
    const body = expectError(bad, 400, 'validation_failed');
    expect(Object.keys(body.errors ?? {})).toEqual(expect.arrayContaining(['scans.1.date', 'scans.1.time']));
    expectError(await scan({ date: lastCounted, time: '07:00' }), 400, 'validation_failed');
    expectError(await scan({ scans: [] }), 400, 'validation_failed');
    expect(await countScans()).toBe(before);
  });

  it('makes the first scan the time in and the last the time out, whatever order they arrive in', async () => {
    const day = lastCounted;
    await clearDay(registered.student_id, day);
    const out = ScanResultSchema.parse((await scan({ student_id: registered.student_id, date: day, time: '14:47:12' })).json());
    expect(out).toEqual({ received: 1, stored: 1, duplicates: 0, records_updated: 1, rejected: [] });
    // One scan so far: a time in without a time out, both sessions (docs/requirements.md R10).
    expect(await recordOf(registered.student_id, day)).toMatchObject({ time_in: '14:47', time_out: null, attendance_am: 1, attendance_pm: 1 });

    const early = ScanResultSchema.parse((await scan({ card_serial: registered.student_id, date: day, time: '06:52' })).json());
    expect(early.stored).toBe(1);
    expect(await recordOf(registered.student_id, day)).toEqual({
      attendance_am: 1,
      attendance_pm: 1,
      time_in: '06:52',
      time_out: '14:47',
      late: 0,
      time_scanned_in: `${day} 06:52:00`,
      time_scanned_out: `${day} 14:47:12`,
    });

    // The same scans again, in another order, change nothing.
    const again = ScanResultSchema.parse(
      (
        await scan({
          scans: [
            { student_id: registered.student_id, date: day, time: '14:47:12' },
            { student_id: registered.student_id, date: day, time: '06:52:00' },
            { student_id: registered.student_id, date: day, time: '06:52' },
          ],
        })
      ).json(),
    );
    expect(again).toEqual({ received: 3, stored: 0, duplicates: 3, records_updated: 0, rejected: [] });
    expect((await recordOf(registered.student_id, day))?.time_in).toBe('06:52');

    // ...and the student's screen shows the day.
    const screen = StudentAttendanceSchema.parse((await student.get(`/api/student-attendance/${registered.student_id}`)).json());
    expect(screen.attendance_records.find((r) => r.date_scanned === day)).toMatchObject({ time_in: '06:52', time_out: '14:47', late: 0 });
  });

  it('gives the same record for the same scans sent in order, reversed, or twice', async () => {
    const [a, b] = schoolDays.slice(1, 3) as [string, string];
    const times = ['07:58:00', '08:03:10', '12:10:00', '15:20:30'];
    await clearDay(inProgress.student_id, a);
    await clearDay(inProgress.student_id, b);
    await scan({ scans: times.map((time) => ({ student_id: inProgress.student_id, date: a, time })) });
    for (const time of [...times].reverse()) await scan({ student_id: inProgress.student_id, date: b, time });
    await scan({ scans: times.map((time) => ({ student_id: inProgress.student_id, date: b, time })) });
    const recordA = await recordOf(inProgress.student_id, a);
    const recordB = await recordOf(inProgress.student_id, b);
    expect({ ...recordB, time_scanned_in: null, time_scanned_out: null }).toEqual({ ...recordA, time_scanned_in: null, time_scanned_out: null });
    expect(recordA).toMatchObject({ time_in: '07:58', time_out: '15:20', late: 0, attendance_am: 1, attendance_pm: 1 });
  });

  it('keeps the other scans of a batch when a student is unknown or a date is in the future', async () => {
    const day = schoolDays[3]!;
    await clearDay(registered.student_id, day);
    const response = await scan({
      scans: [
        { student_id: '19990001', date: day, time: '07:10' },
        { student_id: registered.student_id, date: day, time: '07:12' },
        { student_id: registered.student_id, date: addDays(today, 5), time: '07:12' },
      ],
    });
    expect(response.statusCode).toBe(200);
    expect(ScanResultSchema.parse(response.json())).toEqual({
      received: 3,
      stored: 1,
      duplicates: 0,
      records_updated: 1,
      rejected: [
        { index: 0, student_id: '19990001', reason: 'No student has this ID.' },
        { index: 2, student_id: registered.student_id, reason: 'The date is in the future.' },
      ],
    });
  });

  it('keeps the times of a record made before the scans (seeded days)', async () => {
    const day = schoolDays[4]!;
    const seeded = await recordOf(registered.student_id, day);
    await t.database.db.deleteFrom('attendance_scans').where('student_id', '=', registered.student_id).where('scanned_date', '=', day).execute();
    if (!seeded?.time_in) {
      // The demo student was absent that day: give the day a record as an older system would.
      await t.database.db
        .insertInto('attendance_records')
        .values({ student_id: registered.student_id, date_scanned: day, attendance_am: 1, attendance_pm: 1, time_in: '07:20', time_out: '14:35', late: 0, time_scanned_in: `${day} 07:20:05`, time_scanned_out: `${day} 14:35:40`, created_at: today, updated_at: today })
        .onConflict((oc) => oc.columns(['student_id', 'date_scanned']).doUpdateSet({ time_in: '07:20', time_out: '14:35', time_scanned_in: `${day} 07:20:05`, time_scanned_out: `${day} 14:35:40` }))
        .execute();
    }
    const before = (await recordOf(registered.student_id, day))!;
    await scan({ student_id: registered.student_id, date: day, time: '10:00' });
    expect(await recordOf(registered.student_id, day)).toMatchObject({ time_in: before.time_in, time_out: before.time_out });
  });

  it('records both scans when two gates send the same student and day at once', async () => {
    const day = schoolDays[5]!;
    await clearDay(inProgress.student_id, day);
    const calls = [];
    for (let i = 0; i < 6; i++) {
      calls.push(scan({ student_id: inProgress.student_id, date: day, time: i % 2 === 0 ? `07:4${i}:00` : `15:0${i}:00` }));
    }
    const results = await Promise.all(calls);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(await recordOf(inProgress.student_id, day)).toMatchObject({ time_in: '07:40', time_out: '15:05' });
  });
});

describe('bell time and school holidays (admin)', () => {
  it('refuses a visitor (401), a student (403) and a bad bell time (400)', async () => {
    expectError(await client().get('/api/attendance/settings'), 401);
    expectError(await student.get('/api/attendance/settings'), 403, 'forbidden');
    expectError(await student.request('PUT', '/api/attendance/settings', { body: { bell_time: '07:30' } }), 403, 'forbidden');
    expectError(await admin.request('PUT', '/api/attendance/settings', { body: { bell_time: '7:5' } }), 400, 'validation_failed');
    expectError(await student.post('/api/attendance/holidays', { date: today, name: 'x' }), 403, 'forbidden');
  });

  it('marks arrivals after a changed bell time late', async () => {
    expect((await admin.get('/api/attendance/settings')).json()).toEqual({ bell_time: '08:00' });
    const day = schoolDays[6]!;
    await clearDay(inProgress.student_id, day);
    await scan({ student_id: inProgress.student_id, date: day, time: '07:45' });
    expect((await recordOf(inProgress.student_id, day))?.late).toBe(0);

    const put = await admin.request('PUT', '/api/attendance/settings', { body: { bell_time: '07:30' } });
    expect(put.json()).toEqual({ bell_time: '07:30' });
    await clearDay(inProgress.student_id, day);
    await scan({ student_id: inProgress.student_id, date: day, time: '07:45' });
    expect((await recordOf(inProgress.student_id, day))?.late).toBe(1);
    await admin.request('PUT', '/api/attendance/settings', { body: { bell_time: '08:00' } });
  });

  it('takes a holiday out of the possible attendance, and back when removed', async () => {
    const url = `/api/student-attendance/${registered.student_id}`;
    const possible = async () => StudentAttendanceSchema.parse((await student.get(url)).json()).possible_attendance;
    const before = await possible();
    const day = schoolDays[7]!;
    const created = await admin.post('/api/attendance/holidays', { date: day, name: 'Flood day' });
    expect(created.statusCode).toBe(201);
    const holiday = SchoolHolidaySchema.parse(created.json());
    expect(await possible()).toBe(before - 2);
    expectError(await admin.post('/api/attendance/holidays', { date: day, name: 'Again' }), 409, 'conflict');
    expectError(await admin.post('/api/attendance/holidays', { date: '2026-02-31', name: 'No such day' }), 400, 'validation_failed');
    expect((await admin.get('/api/attendance/holidays')).json()).toEqual(expect.arrayContaining([{ id: holiday.id, date: day, name: 'Flood day' }]));
    expect((await admin.delete(`/api/attendance/holidays/${holiday.id}`)).statusCode).toBe(204);
    expect(await possible()).toBe(before);
    expectError(await admin.delete(`/api/attendance/holidays/${holiday.id}`), 404, 'not_found');
  });
});

describe('POST /api/attendance/import (CSV and XLSX)', () => {
  const importUrl = (dryRun: boolean) => `/api/attendance/import?dryRun=${dryRun ? 1 : 0}`;

  it('refuses a visitor (401), a student (403), a non-multipart body and other file types (415)', async () => {
    const csv = multipart('scans.csv', 'student_id,date,time\n', 'text/csv');
    expectError(await client().post(importUrl(true), csv.body, { headers: csv.headers }), 401);
    expectError(await student.post(importUrl(true), csv.body, { headers: csv.headers }), 403, 'forbidden');
    expectError(await admin.post(importUrl(true), { student_id: 'x' }), 415, 'unsupported_media_type');
    const pdf = multipart('scans.pdf', '%PDF-1.4', 'application/pdf');
    expectError(await admin.post(importUrl(true), pdf.body, { headers: pdf.headers }), 415, 'unsupported_media_type');
  });

  it('refuses a file without the needed columns or without rows (400)', async () => {
    const noTime = multipart('scans.csv', 'student_id,date\n20220001,2026-10-01\n', 'text/csv');
    const body = expectError(await admin.post(importUrl(true), noTime.body, { headers: noTime.headers }), 400);
    expect(body.message).toContain('time');
    const empty = multipart('scans.csv', 'student_id,date,time\n\n', 'text/csv');
    expectError(await admin.post(importUrl(true), empty.body, { headers: empty.headers }), 400);
  });

  it('previews bad rows in a dry run, and refuses to import any of a file with bad rows', async () => {
    const [a] = schoolDays.slice(8, 9) as [string];
    const text = [
      'Student ID,Date,Time',
      `${registered.student_id},${a},07:05`,
      `19990001,${a},07:06`,
      `${registered.student_id},05/10/2026,07:07`,
      `"${inProgress.student_id}",${a},7am`,
      '',
    ].join('\r\n');
    const file = multipart('gate.csv', text, 'text/csv');
    const before = await countScans();

    const preview = ImportResultSchema.parse((await admin.post(importUrl(true), file.body, { headers: file.headers })).json());
    expect(preview).toMatchObject({ dry_run: true, rows: 4, valid: 1, result: null, students: 1, first_date: a, last_date: a });
    expect(preview.errors).toEqual([
      { row: 3, field: 'student_id', message: 'No student has this ID.' },
      { row: 4, field: 'date', message: 'Enter a date as yyyy-MM-dd.' },
      { row: 5, field: 'time', message: 'Enter a time as HH:mm or HH:mm:ss (24-hour clock).' },
    ]);

    const refused = expectError(await admin.post(importUrl(false), file.body, { headers: file.headers }), 400, 'validation_failed');
    expect(refused.message).toBe('3 problems in the file; nothing was imported.');
    expect(refused.errors).toEqual({
      'row 3': ['student_id: No student has this ID.'],
      'row 4': ['date: Enter a date as yyyy-MM-dd.'],
      'row 5': ['time: Enter a time as HH:mm or HH:mm:ss (24-hour clock).'],
    });
    expect(await countScans()).toBe(before);
  });

  it("imports a day's CSV once: the same file again stores nothing new", async () => {
    const day = schoolDays[9]!;
    await clearDay(registered.student_id, day);
    await clearDay(inProgress.student_id, day);
    const text = `student_id;date;time\n${registered.student_id};${day};07:35:00\n${inProgress.student_id};${day};08:10\n${registered.student_id};${day};14:55\n`;
    const file = multipart('day.csv', text, 'text/csv');
    const first = ImportResultSchema.parse((await admin.post(importUrl(false), file.body, { headers: file.headers })).json());
    expect(first).toMatchObject({ dry_run: false, rows: 3, valid: 3, errors: [], result: { stored: 3, duplicates: 0, records_updated: 2 } });
    expect(await recordOf(registered.student_id, day)).toMatchObject({ time_in: '07:35', time_out: '14:55', late: 0 });
    expect(await recordOf(inProgress.student_id, day)).toMatchObject({ time_in: '08:10', time_out: null, late: 1 });
    const again = ImportResultSchema.parse((await admin.post(importUrl(false), file.body, { headers: file.headers })).json());
    expect(again.result).toMatchObject({ stored: 0, duplicates: 3, records_updated: 0 });
    const audit = await t.database.db.selectFrom('audit_log').select('field').where('action', '=', 'import').execute();
    expect(audit.map((a) => a.field)).toEqual(['day.csv', 'day.csv']);
  });

  it('reads an XLSX with dates and times as Excel stores them', async () => {
    const day = schoolDays[10]!;
    await clearDay(inProgress.student_id, day);
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Scans');
    sheet.addRow(['card_serial', 'date', 'time']);
    sheet.addRow([inProgress.student_id, new Date(`${day}T00:00:00Z`), new Date('1899-12-30T07:25:30Z')]);
    sheet.addRow([inProgress.student_id, day, 0.625]); // 15:00 as a fraction of a day
    const bytes = Buffer.from(await workbook.xlsx.writeBuffer());
    const file = multipart('term.xlsx', bytes, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const result = ImportResultSchema.parse((await admin.post(importUrl(false), file.body, { headers: file.headers })).json());
    expect(result).toMatchObject({ rows: 2, valid: 2, errors: [], result: { stored: 2, records_updated: 1 } });
    expect(await recordOf(inProgress.student_id, day)).toMatchObject({ time_in: '07:25', time_out: '15:00', attendance_am: 1, attendance_pm: 1 });
  });

  it('refuses a file that claims to be XLSX but is not (400)', async () => {
    const file = multipart('scans.xlsx', 'not a zip', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expectError(await admin.post(importUrl(true), file.body, { headers: file.headers }), 400, 'bad_request');
  });
});
