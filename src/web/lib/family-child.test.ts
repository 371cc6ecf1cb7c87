import { describe, expect, it } from 'vitest';
import type { SessionUser } from '../../shared/auth.schemas.js';
import { childShownTo } from './family-child.js';
import { homePathFor, safeNextPath, studentShownTo } from './session.js';
import { familySession } from '../../../tests/support/family-session.js';

/** A family account's session answer, as the server gives it. */
const parent: SessionUser = { ...familySession('family@example.com', ['20220001', '20240001', '20260001']), student_permissions: ['student.read', 'student.edit'], second_factor_setup: false };

describe('childShownTo', () => {
  const children = ['20220001', '20240001', '20260001'];

  it('shows the child the address names, linked or not (the server refuses one that is not)', () => {
    expect(childShownTo(children, '20240001', '20260001')).toBe('20240001');
    expect(childShownTo(children, '20230005', '20260001')).toBe('20230005');
  });

  it("else the tab's chosen child while it is still linked, else the first", () => {
    expect(childShownTo(children, null, '20260001')).toBe('20260001');
    expect(childShownTo(children, null, '20230005')).toBe('20220001');
    expect(childShownTo(children, null, null)).toBe('20220001');
    expect(childShownTo(children, '', null)).toBe('20220001');
  });

  it('is null with no child linked', () => {
    expect(childShownTo([], null, '20220001')).toBeNull();
  });
});

describe('a family account on the student screens', () => {
  it('sees the named or first linked child, and belongs on the student dashboard', () => {
    // No browser storage here: nothing is remembered, so the first child stands in.
    expect(studentShownTo(parent, new URLSearchParams())).toBe('20220001');
    expect(studentShownTo(parent, new URLSearchParams('student=20260001'))).toBe('20260001');
    expect(studentShownTo({ ...parent, child_ids: [] }, new URLSearchParams())).toBeNull();
    expect(studentShownTo({ ...parent, child_ids: undefined }, new URLSearchParams())).toBeNull();
    expect(homePathFor(parent)).toBe('/dashboard');
  });
});

describe('safeNextPath', () => {
  it('keeps a path of this portal with its query', () => {
    expect(safeNextPath('/family/accept?token=abc_DEF-123')).toBe('/family/accept?token=abc_DEF-123');
    expect(safeNextPath('/dashboard')).toBe('/dashboard');
  });

  it('refuses anything that leaves the portal or is not a path', () => {
    for (const next of [null, '', 'dashboard', 'https://evil.example/', '//evil.example/x', '/\\evil.example', '/\t/evil.example', 'javascript:alert(1)']) {
      expect(safeNextPath(next)).toBeNull();
    }
  });
});
