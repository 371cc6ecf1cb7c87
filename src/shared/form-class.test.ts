import { describe, expect, it } from 'vitest';
import { formClassName } from './form-class.js';
import { toLookupOptions } from './lookups.schemas.js';

describe('formClassName', () => {
  it("writes a class as the term report list does: 'Form {form_level} {class_id}'", () => {
    expect(formClassName('4A', 4)).toBe('Form 4 4A');
    expect(formClassName('1C', 1)).toBe('Form 1 1C');
  });

  it('says what it knows when a part is missing', () => {
    expect(formClassName('4A', null)).toBe('4A');
    expect(formClassName('4A', undefined)).toBe('4A');
    expect(formClassName(null, 5)).toBe('Form 5');
    expect(formClassName('', 5)).toBe('Form 5');
    expect(formClassName(null, null)).toBeNull();
  });
});

describe('the form class select of the registration record', () => {
  it('offers each class as people write it, storing the class id', () => {
    expect(toLookupOptions('formClasses', [{ id: '4A', form_level: 4 }])).toEqual([{ value: '4A', label: 'Form 4 4A' }]);
    expect(toLookupOptions('houses', [{ id: 'R', name: 'Red', color: '#f00' }])).toEqual([{ value: 'R', label: 'Red' }]);
  });
});
