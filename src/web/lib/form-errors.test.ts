import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FindStudentIdSchema } from '../../shared/auth.schemas.js';
import { fieldErrorsOf } from './form-errors.js';

describe('fieldErrorsOf', () => {
  it("gives each field the first message zod's flattenError gives it", () => {
    const parsed = FindStudentIdSchema.safeParse({ first_name: '', last_name: 'x'.repeat(30), date_of_birth: '2014/03/09' });
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    const flat = z.flattenError(parsed.error).fieldErrors as Record<string, string[] | undefined>;
    const expected = Object.fromEntries(Object.entries(flat).map(([field, messages]) => [field, messages?.[0]]));
    expect(fieldErrorsOf(parsed.error)).toEqual(expected);
    expect(Object.keys(expected).sort()).toEqual(['date_of_birth', 'first_name', 'last_name']);
  });

  it('leaves out issues about the whole form', () => {
    const parsed = z.object({ a: z.string() }).refine(() => false, 'Whole form').safeParse({ a: 'x' });
    expect(parsed.success).toBe(false);
    if (!parsed.success) expect(fieldErrorsOf(parsed.error)).toEqual({});
  });
});
