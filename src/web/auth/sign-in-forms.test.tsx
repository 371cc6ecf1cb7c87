import { useState } from 'react';
import { screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionAnswer, UserStatus } from '../../shared/auth.schemas.js';
import { createQueryClient, renderScreen } from '../../../tests/support/render-web.js';
import { sessionQueryKey } from '../lib/session.js';
import { AdminLoginPage } from './admin-login-page.js';
import { BirthDateField } from '../components/birth-date-field.js';
import { StudentIdLoginForm } from './student-id-login-form.js';

/**
 * The sign-in forms' own rules and modes, without a server: what the student's password field asks
 * for (a reset account's password is the birth date), the date of birth as every date on screen
 * reads, and the messages for a blank form, which must call nothing. Signing in for real is the
 * browser suite's (auth.spec.ts).
 */

/** Every call the forms made, as "METHOD path". */
let calls: string[];

beforeEach(() => {
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((path: string, init: RequestInit = {}) => {
      calls.push(`${init.method ?? 'GET'} ${path}`);
      return Promise.reject(new Error('no server in a component test'));
    }),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
});

/** The login form as the student login page holds it: the typed ID lives in the page. */
function StudentForm({ initialId }: { initialId: string }) {
  const [studentId, setStudentId] = useState(initialId);
  return <StudentIdLoginForm studentId={studentId} onStudentIdChange={setStudentId} onSignedIn={() => undefined} />;
}

/** The student form with the server's answer about `studentId` already known. */
function renderStudentForm(studentId: string, passwordReset: 0 | 1) {
  const queryClient = createQueryClient();
  const status: UserStatus = [{ student_id: studentId, first_login: 0, password_reset: passwordReset }];
  queryClient.setQueryData(['user-status', studentId], status);
  renderScreen(<StudentForm initialId={studentId} />, { queryClient });
  return screen.getByRole('form', { name: 'Student sign in' });
}

describe("the student's sign-in form", () => {
  it('asks for the password of an account in normal mode, with no hint', () => {
    const form = renderStudentForm('20220001', 0);
    const password = form.querySelector('input[name="password"]')!;
    expect(password.getAttribute('placeholder')).toBe('Enter password');
    expect(within(form).queryByText('yyyymmdd')).toBeNull();
  });

  it('asks a reset account for the date of birth, and says how to type it', () => {
    const form = renderStudentForm('20260003', 1);
    const password = form.querySelector('input[name="password"]')!;
    expect(password.getAttribute('placeholder')).toBe('Enter date of birth');
    expect(within(form).getByText('yyyymmdd')).toBeTruthy();
  });

  it('an e-mail typed as the Student ID points to the parents’ sign-in at once, and asks the server nothing about it', async () => {
    renderStudentForm('', 0);
    const id = screen.getByRole('textbox', { name: /Student ID/ });
    await userEvent.setup().type(id, 'sandra.mohammed@example.tt');
    const pointer = screen.getByRole('link', { name: 'sign in with your e-mail' });
    expect(pointer.getAttribute('href')).toBe('/family/sign-in');
    expect(pointer.closest('p')?.textContent).toContain('a Student ID is 8 digits');
    expect(calls).toEqual([]);
  });

  it('a blank form says which fields are missing and calls nothing', async () => {
    renderStudentForm('', 0);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getByText('Student ID is required.')).toBeTruthy();
    expect(screen.getByText('This field is required.')).toBeTruthy();
    expect(calls).toEqual([]);
  });
});

describe("the administrator's sign-in form", () => {
  it("a blank username shows 'Username field empty' in the alert and calls nothing", async () => {
    const queryClient = createQueryClient();
    queryClient.setQueryData<SessionAnswer>(sessionQueryKey, { user: null });
    renderScreen(<AdminLoginPage />, { path: '/admin', queryClient });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getByRole('alert').textContent).toContain('Username field empty');
    expect(calls).toEqual([]);
  });
});

/** The date-of-birth field as the first-time sign-in and "Find your Student ID" hold it. */
function BirthDate({ error }: { error?: string }) {
  const [value, setValue] = useState('');
  return <BirthDateField value={value} onChange={setValue} error={error} autoComplete="bday" />;
}

describe('the date of birth on the sign-in screens', () => {
  it('is a text field showing yyyy-MM-dd with an example, not the browser date input', () => {
    renderScreen(<BirthDate />);
    const field = screen.getByRole('textbox', { name: /Date of birth/ });
    expect(field.getAttribute('type')).toBe('text');
    expect(field.getAttribute('placeholder')).toBe('yyyy-MM-dd');
    expect(screen.getByText('Year, month and day, e.g. 2014-03-09')).toBeTruthy();
  });

  it('takes the digits alone and shows them as yyyy-MM-dd when left', async () => {
    renderScreen(<BirthDate />);
    const field = screen.getByRole<HTMLInputElement>('textbox', { name: /Date of birth/ });
    const user = userEvent.setup();
    await user.type(field, '20140309');
    await user.tab();
    expect(field.value).toBe('2014-03-09');
  });

  it("shows the form's message in place of the example", () => {
    renderScreen(<BirthDate error="Enter your date of birth." />);
    expect(screen.getByText('Enter your date of birth.')).toBeTruthy();
    expect(screen.queryByText('Year, month and day, e.g. 2014-03-09')).toBeNull();
  });
});
