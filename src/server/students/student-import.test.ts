import { describe, expect, it } from 'vitest';
import { FIELD_MESSAGES, REGISTRATION_FIELDS } from '../../shared/registration.fields.js';
import type { StudentRow } from './students.repository.js';
import { HEADER_TO_FIELD, IMPORTABLE_FIELDS, checkAcrossRows, checkRow, readHeader, type LookupResolver } from './student-import.js';
import type { Cell, SheetRow } from '../spreadsheets/spreadsheet-upload.js';

const text = (value: string): Cell => (value === '' ? { kind: 'empty' } : { kind: 'text', value });
const sheetRow = (rowNumber: number, values: (string | Cell)[]): SheetRow => ({ rowNumber, cells: values.map((v) => (typeof v === 'string' ? text(v) : v)) });
const resolve: LookupResolver = (lookup, value) => {
  const lists: Record<string, Record<string, string>> = { formClasses: { '1a': '1A' }, religions: { hindu: 'HIN', hin: 'HIN' }, houses: { red: 'R', r: 'R' } };
  return lists[lookup]?.[value.toLowerCase()] ?? null;
};
const ctx = (existing: Record<string, Partial<StudentRow>> = {}) => ({
  today: '2026-09-01',
  resolve,
  existing: new Map(Object.entries(existing).map(([id, row]) => [id, { id, ...row } as StudentRow])),
});

describe('the heading row', () => {
  it('reads labels and column names of every importable field, and Student ID', () => {
    for (const field of IMPORTABLE_FIELDS) {
      expect(HEADER_TO_FIELD.get(field.label.toLowerCase().replace(/[^a-z0-9]/g, ''))).toBe(field.name);
      expect(HEADER_TO_FIELD.get(field.name.replace(/_/g, ''))).toBe(field.name);
    }
    expect(HEADER_TO_FIELD.get('studentid')).toBe('id');
    // The parents' agreement to the terms is theirs: no import column sets it.
    expect(HEADER_TO_FIELD.has('iagreetothetermsandconditions')).toBe(false);
    expect(REGISTRATION_FIELDS.filter((f) => f.step === 'complete').every((f) => !IMPORTABLE_FIELDS.includes(f))).toBe(true);
  });

  it('refuses a file without Student ID, with a column twice, or without rows; lists ignored columns', () => {
    expect(() => readHeader([sheetRow(1, ['First Name'])])).toThrow(/Student ID/);
    expect(() => readHeader([sheetRow(1, ['Student ID', 'first_name', 'First Name']), sheetRow(2, ['1', 'a', 'b'])])).toThrow(/both hold First Name/);
    expect(() => readHeader([sheetRow(1, ['Student ID'])])).toThrow(/no student rows/);
    expect(readHeader([sheetRow(1, ['ID', 'Shoe size', 'Last Name']), sheetRow(2, ['1', '9', 'x'])])).toMatchObject({ columns: ['id', null, 'last_name'], ignoredColumns: ['Shoe size'] });
  });
});

describe('one row', () => {
  const columns = ['id', 'first_name', 'last_name', 'date_of_birth', 'birth_certificate_no', 'class_id', 'religion_code', 'house_code', 'phone_home', 'school_feeding', 'sex'];

  it('makes the office’s ways of writing canonical', () => {
    const row = checkRow(sheetRow(2, ['20269001', 'Ana', 'Bo', '09/03/2014', 'B1', '1a', 'Hindu', 'red', '868-622-1234', 'yes', 'FEMALE']), columns, ctx());
    expect(row.errors).toEqual({});
    expect(row.values).toEqual({ first_name: 'Ana', last_name: 'Bo', date_of_birth: '2014-03-09', birth_certificate_no: 'B1', class_id: '1A', religion_code: 'HIN', house_code: 'R', phone_home: '6221234', school_feeding: 1, sex: 'Female' });
  });

  it('needs the essentials for a new student but not for an update; empty cells change nothing', () => {
    const fresh = checkRow(sheetRow(2, ['20269001', 'Ana']), columns, ctx());
    expect(Object.keys(fresh.errors).sort()).toEqual(['birth_certificate_no', 'class_id', 'date_of_birth', 'last_name']);
    const update = checkRow(sheetRow(2, ['20269001', 'Ana']), columns, ctx({ '20269001': { first_name: 'Anna' } }));
    expect(update.errors).toEqual({});
    expect(update.values).toEqual({ first_name: 'Ana' });
  });

  it('reports each bad value with the catalogue’s message and refuses formulas', () => {
    const row = checkRow(
      sheetRow(2, ['20269001', 'x'.repeat(21), { kind: 'formula', text: '=A1' }, '2030-01-01', 'B1', '9Z', 'Hindu', 'red', '12345', 'maybe', 'Girl']),
      columns,
      ctx({ '20269001': {} }),
    );
    expect(row.errors).toEqual({
      first_name: ['Maximum 20 characters.'],
      last_name: ['Formulas are not imported (=A1); type the value itself.'],
      date_of_birth: ['The date cannot be in the future.'],
      class_id: ["'9Z' is not one of the listed values."],
      phone_home: [FIELD_MESSAGES.phoneLength],
      school_feeding: ['Write Yes or No.'],
      sex: ['Choose one of: Female, Male (or F, M).'],
    });
  });
});

describe('across rows', () => {
  it('flags an ID twice and a pin or SEA number that belongs to someone else; a student may keep or swap their own', () => {
    const columns = ['id', 'birth_certificate_no', 'sea_no'];
    const rows = [
      checkRow(sheetRow(2, ['A1', 'PIN-1', '']), columns, ctx({ A1: { birth_certificate_no: 'PIN-1' } })),
      checkRow(sheetRow(3, ['B2', 'pin-9', 'SEA-1']), columns, ctx({ B2: {} })),
      checkRow(sheetRow(4, ['C3', 'PIN-9', '']), columns, ctx({ C3: {} })),
      checkRow(sheetRow(5, ['A1', '', '']), columns, ctx({ A1: {} })),
      checkRow(sheetRow(6, ['D4', 'PIN-2', '']), columns, ctx({ D4: {} })),
    ];
    checkAcrossRows(rows, [
      { id: 'A1', birth_certificate_no: 'PIN-1', sea_no: null },
      { id: 'Z9', birth_certificate_no: 'PIN-2', sea_no: 'sea-1' },
    ]);
    expect(rows.map((r) => r.errors)).toEqual([
      {},
      { sea_no: ['Student Z9 already has this SEA Number.'] },
      { birth_certificate_no: ['Row 3 (student B2) has the same Birth Certificate Pin.'] },
      { id: ['Student ID A1 is also on row 2.'] },
      { birth_certificate_no: ['Student Z9 already has this Birth Certificate Pin.'] },
    ]);
  });
});
