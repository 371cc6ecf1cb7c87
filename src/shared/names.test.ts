import { describe, expect, it } from 'vitest';
import { listName } from './names.js';

describe('listName', () => {
  it('puts the last name first, and leaves out what is missing', () => {
    expect(listName({ first_name: 'Asha', last_name: 'Ramdial' })).toBe('Ramdial, Asha');
    expect(listName({ first_name: 'Asha', last_name: null })).toBe('Asha');
    expect(listName({ first_name: '', last_name: 'Ramdial' })).toBe('Ramdial');
    expect(listName({ first_name: null, last_name: null })).toBeNull();
  });
});
