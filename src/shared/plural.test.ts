import { describe, expect, it } from 'vitest';
import { countOf } from './plural.js';

describe('countOf', () => {
  it('says one in the singular and any other count in the plural', () => {
    expect(countOf(1, 'class', 'classes')).toBe('1 class');
    expect(countOf(3, 'class', 'classes')).toBe('3 classes');
    expect(countOf(0, 'student')).toBe('0 students');
    expect(countOf(1, 'student')).toBe('1 student');
  });
});
