import fc from 'fast-check';

/**
 * Generators of hostile input for the property-based suite: wrong types, huge
 * strings, unicode edge cases, injection strings, unknown fields and prototype-pollution keys.
 * Objects are kept as lists of entries and serialised by hand, so `__proto__` and duplicate
 * keys reach the server as written instead of being swallowed by JavaScript's own objects.
 */

export const INJECTION_STRINGS: readonly string[] = [
  // SQL
  "' OR '1'='1",
  "1; DROP TABLE students; --",
  '" OR 1=1 --',
  "admin'--",
  "1' UNION SELECT password_hash FROM users --",
  "'); DELETE FROM users; --",
  '1 AND pg_sleep(5)',
  // markup and script
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '<svg onload=alert(1)>',
  'javascript:alert(1)',
  '"><iframe src=//evil>',
  // spreadsheet formulas (CSV/XLSX injection)
  "=cmd|' /C calc'!A0",
  '=HYPERLINK("http://evil.example","x")',
  '+1+1',
  '-1+1',
  '@SUM(1)',
  '\t=1',
  // paths and control characters
  '../../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '%2e%2e%2f%2e%2e%2f',
  '\u0000',
  'a\u0000b',
  '\r\nSet-Cookie: portal_session=x',
  '\u001b[31m',
  // templates and formats
  '${7*7}',
  '{{7*7}}',
  '%s%s%s%n',
  // unicode edge cases
  '\u202eexe.pdf',
  '\ufeff',
  '\ud800',
  '\udfff',
  'x\ud83dy',
  '𝕏😀👨‍👩‍👧‍👦',
  'Z̴̡̢̛̖̗͈͉̠̤̭͓̪̓̀͊̓̿̈́̕͜a̸l̶g̷o̶',
  'ﷺ',
  'İıſK',
  '\u2028\u2029',
  // look-alikes of valid values and keywords
  'null',
  'undefined',
  'NaN',
  'Infinity',
  'true',
  '[]',
  '{}',
  '0x10',
  '1e309',
  '-0',
  '00000000',
  '20220002',
  '2026-02-30',
  '9999-99-99',
  '2026-13-01',
  '25:61',
  'admin',
  '__proto__',
  'constructor',
  'prototype',
  '$where',
  '{"$gt":""}',
  '*',
  '%',
  '_',
  "'",
  '"',
  '\\',
  '/',
  '?',
  '#',
  '&',
  '=',
  ';',
  ' ',
  '',
];

/** Keys a mass-assignment or prototype-pollution attempt would use. */
export const HOSTILE_KEYS: readonly string[] = [
  '__proto__',
  'constructor',
  'prototype',
  'password_hash',
  'password',
  'role',
  'admin',
  'is_admin',
  'user_id',
  'student_id',
  'id',
  'class_id',
  'house_code',
  'first_login',
  'password_reset',
  'failed_attempts',
  'created_at',
  'updated_at',
  'toString',
  'valueOf',
  'hasOwnProperty',
];

export type HostileValue =
  | { kind: 'string'; value: string }
  | { kind: 'number'; raw: string }
  | { kind: 'boolean'; value: boolean }
  | { kind: 'null' }
  | { kind: 'array'; items: HostileValue[] }
  | { kind: 'object'; entries: [string, HostileValue][] }
  | { kind: 'raw'; text: string };

/** JSON text of a hostile value (entries written in order, duplicates and __proto__ kept). */
export function toJson(value: HostileValue): string {
  switch (value.kind) {
    case 'string':
      return JSON.stringify(value.value);
    case 'number':
      return value.raw;
    case 'boolean':
      return String(value.value);
    case 'null':
      return 'null';
    case 'array':
      return `[${value.items.map(toJson).join(',')}]`;
    case 'object':
      return `{${value.entries.map(([key, item]) => `${JSON.stringify(key)}:${toJson(item)}`).join(',')}}`;
    case 'raw':
      return value.text;
  }
}

/** The query-string text of a value (objects and arrays flattened the way qs-style parsers read them). */
export function toQueryText(value: HostileValue): string {
  switch (value.kind) {
    case 'string':
      return value.value;
    case 'number':
      return value.raw;
    case 'boolean':
      return String(value.value);
    case 'null':
      return '';
    case 'raw':
      return value.text;
    default:
      return toJson(value);
  }
}

/** A plain JSON-able value as a hostile value (to start from a route's valid sample). */
export function fromPlain(value: unknown): HostileValue {
  if (value === null || value === undefined) return { kind: 'null' };
  if (typeof value === 'string') return { kind: 'string', value };
  if (typeof value === 'number') return { kind: 'number', raw: JSON.stringify(value) };
  if (typeof value === 'boolean') return { kind: 'boolean', value };
  if (Array.isArray(value)) return { kind: 'array', items: value.map(fromPlain) };
  return { kind: 'object', entries: Object.entries(value as Record<string, unknown>).map(([key, item]) => [key, fromPlain(item)]) };
}

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...INJECTION_STRINGS) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  // Huge: 10 characters up to a million (past the 1 MiB body limit at the top end).
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 6 }).map((n) => 'A'.repeat(10 ** n)) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...INJECTION_STRINGS), fc.integer({ min: 50, max: 3000 })).map(([s, n]) => s.repeat(n)) },
);

const hostileNumber: fc.Arbitrary<HostileValue> = fc.oneof(
  fc.integer().map((n) => ({ kind: 'number' as const, raw: String(n) })),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => ({ kind: 'number' as const, raw: JSON.stringify(n) })),
  fc
    .constantFrom('9007199254740993', '-9007199254740993', '1e308', '1e-320', '-0', '0.1e1', '123456789012345678901234567890', '1E400', '2.5', '-1', '0')
    .map((raw) => ({ kind: 'number' as const, raw })),
);

export const hostileKey: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_KEYS) },
  { weight: 1, arbitrary: hostileString.filter((s) => s.length < 200) },
);

const { value: hostileValueArb } = fc.letrec<{ value: HostileValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString.map((value) => ({ kind: 'string' as const, value })),
    hostileNumber,
    fc.boolean().map((value) => ({ kind: 'boolean' as const, value })),
    fc.constant({ kind: 'null' as const }),
    fc.array(tie('value'), { maxLength: 4 }).map((items) => ({ kind: 'array' as const, items })),
    fc.array(fc.tuple(hostileKey, tie('value')), { maxLength: 4 }).map((entries) => ({ kind: 'object' as const, entries })),
  ),
}));

/** Any hostile JSON value: strings, numbers, booleans, null, arrays and objects, nested. */
export const hostileValue: fc.Arbitrary<HostileValue> = fc.oneof(
  { weight: 8, arbitrary: hostileValueArb },
  // Deep nesting (parsers and validators that recurse).
  { weight: 1, arbitrary: fc.integer({ min: 100, max: 5000 }).map((depth) => ({ kind: 'raw' as const, text: `${'['.repeat(depth)}${']'.repeat(depth)}` })) },
  // Pollution payloads as nested objects.
  {
    weight: 1,
    arbitrary: fc.constantFrom<HostileValue>(
      { kind: 'raw', text: '{"__proto__":{"polluted":"yes"}}' },
      { kind: 'raw', text: '{"constructor":{"prototype":{"polluted":"yes"}}}' },
      { kind: 'raw', text: '{"__proto__":null}' },
    ),
  },
);

/** Whole bodies that are not JSON objects at all, or not JSON. */
export const RAW_BODIES: readonly { text: string; contentType: string }[] = [
  { text: '', contentType: 'application/json' },
  { text: '{', contentType: 'application/json' },
  { text: '{"a":', contentType: 'application/json' },
  { text: '{"a":1,}', contentType: 'application/json' },
  { text: "{'a':1}", contentType: 'application/json' },
  { text: 'NaN', contentType: 'application/json' },
  { text: '\ufeff{}', contentType: 'application/json' },
  { text: '{"__proto__":{"polluted":"yes"}}', contentType: 'application/json' },
  { text: '{"constructor":{"prototype":{"polluted":"yes"}}}', contentType: 'application/json' },
  { text: '{"a":1}', contentType: 'text/plain' },
  { text: 'a=1&b=2', contentType: 'application/x-www-form-urlencoded' },
  { text: '<x>1</x>', contentType: 'application/xml' },
  { text: '{"a":1}', contentType: 'application/json; charset=utf-16' },
  { text: '{"a":1}', contentType: 'multipart/form-data' },
  { text: '{"a":1}', contentType: 'multipart/form-data; boundary=x' },
  { text: '{"a":1}', contentType: '' },
];
