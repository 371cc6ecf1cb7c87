import { useState } from 'react';
import { screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NEW_PASSWORD_HINT, STAFF_ACCOUNT_DISABLED_MESSAGE, type SessionAnswer, type UserStatus } from '../../shared/auth.schemas.js';
import { STAFF_PASSWORD_TOO_SHORT } from '../../shared/staff.schemas.js';
import { answerFetch, createQueryClient, renderScreen } from '../../../tests/support/render-web.js';
import { Route, Routes } from 'react-router';
import { ApiError } from '../lib/api-client.js';
import { sessionQueryKey, takeStaffSignInNotice } from '../lib/session.js';
import { Guard } from './require-auth.js';
import { AdminLoginPage } from './admin-login-page.js';
import { staffSignInOptionsQuery } from './auth.api.js';
import type { StaffSignInOptions } from '../../shared/staff-sign-in.js';
import { BirthDateField } from '../components/birth-date-field.js';
import { FirstLoginForm } from './first-login-form.js';
import { StudentIdLoginForm } from './student-id-login-form.js';
import { StudentLoginPage } from './student-login-page.js';
import { StudentForgotPasswordPage, StudentResetPasswordPage } from './student-password-reset-pages.js';

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
    queryClient.setQueryData<StaffSignInOptions>(staffSignInOptionsQuery.queryKey, { providers: [], password_sign_in: true });
    renderScreen(<AdminLoginPage />, { path: '/admin', queryClient });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getByRole('alert').textContent).toContain('Username field empty');
    expect(calls).toEqual([]);
  });

  it("the school's provider comes first, its link carries “Keep me signed in”, and a refused sign-in's reason shows (D96)", async () => {
    const queryClient = createQueryClient();
    queryClient.setQueryData<SessionAnswer>(sessionQueryKey, { user: null });
    queryClient.setQueryData<StaffSignInOptions>(staffSignInOptionsQuery.queryKey, { providers: [{ id: 'school', label: 'Sign in with Microsoft 365' }], password_sign_in: true });
    renderScreen(<AdminLoginPage />, { path: '/admin?sign_in_error=unknown_account', queryClient });
    const provider = screen.getByRole('link', { name: 'Sign in with Microsoft 365' });
    expect(provider.getAttribute('href')).toBe('/api/oidc/school/start');
    expect(provider.compareDocumentPosition(screen.getByRole('textbox', { name: /Username/ })) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('No staff account here has your school e-mail address');
    await userEvent.setup().click(screen.getByRole('checkbox', { name: 'Keep me signed in on this device' }));
    expect(provider.getAttribute('href')).toBe('/api/oidc/school/start?remember=1');
    expect(screen.getByText('or with username and password')).toBeTruthy();
    expect(calls).toEqual([]);
  });

  it('a reason this portal never sends shows nothing, and with passwords off the form is the emergency administrator’s (D96)', () => {
    const queryClient = createQueryClient();
    queryClient.setQueryData<SessionAnswer>(sessionQueryKey, { user: null });
    queryClient.setQueryData<StaffSignInOptions>(staffSignInOptionsQuery.queryKey, { providers: [{ id: 'school', label: 'Sign in with Google' }], password_sign_in: false });
    renderScreen(<AdminLoginPage />, { path: '/admin?sign_in_error=<script>', queryClient });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByText('Emergency administrator only')).toBeTruthy();
  });

  it('a disabled account’s right password: the alert says so and whom to ask, and the staff sign-in stays (D84)', async () => {
    answerFetch({ '/api/admin-login': [403, { message: STAFF_ACCOUNT_DISABLED_MESSAGE, code: 'account_disabled' }] }, calls);
    const queryClient = createQueryClient();
    queryClient.setQueryData<SessionAnswer>(sessionQueryKey, { user: null });
    renderScreen(<AdminLoginPage />, { path: '/admin', queryClient });
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: /Username/ }), 'office2');
    await user.type(screen.getByLabelText(/Password/), 'the-right-password');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect((await screen.findByRole('alert')).textContent).toContain(STAFF_ACCOUNT_DISABLED_MESSAGE);
    expect(screen.getByRole('form', { name: 'Administrator sign in' })).toBeTruthy();
  });

  it('a staff member whose account was disabled is sent to the staff sign-in, not the student’s, and told why (D84)', async () => {
    answerFetch({ '/api/session': [200, { user: null, ended: 'account_disabled' }] }, calls);
    renderScreen(
      <Routes>
        <Route element={<Guard rule={{ role: 'staff' }} />}>
          <Route path="/admin/dashboard" element={<p>Dashboard</p>} />
        </Route>
        <Route path="/admin" element={<AdminLoginPage />} />
        <Route path="/" element={<p>Student sign in</p>} />
      </Routes>,
      { path: '/admin/dashboard' },
    );
    expect((await screen.findByRole('alert')).textContent).toContain(STAFF_ACCOUNT_DISABLED_MESSAGE);
    expect(screen.getByRole('form', { name: 'Administrator sign in' })).toBeTruthy();
    expect(screen.queryByText('Student sign in', { selector: 'p' })).toBeNull();
  });

  it('a call refused because the account was disabled leaves the note for the staff sign-in (D84)', async () => {
    takeStaffSignInNotice(); // nothing left from another test
    const queryClient = createQueryClient();
    const refused = new ApiError(401, { message: STAFF_ACCOUNT_DISABLED_MESSAGE, code: 'account_disabled' });
    await queryClient.fetchQuery({ queryKey: ['students'], queryFn: () => Promise.reject(refused), retry: false }).catch(() => undefined);
    expect(takeStaffSignInNotice()).toBe(STAFF_ACCOUNT_DISABLED_MESSAGE);
    expect(takeStaffSignInNotice()).toBeNull();
  });
});

/** The date-of-birth field as the first-time sign-in, "Find your Student ID" and "Add a child" hold it. */
function BirthDate({ error }: { error?: string }) {
  const [value, setValue] = useState('');
  return <BirthDateField value={value} onChange={setValue} error={error} autoComplete="bday" />;
}

describe('the date of birth on the sign-in screens and "Add a child" (D77)', () => {
  it('is a text field whose placeholder says dd/MM/yyyy, with an example, not the browser date input', () => {
    renderScreen(<BirthDate />);
    const field = screen.getByRole('textbox', { name: /Date of birth/ });
    expect(field.getAttribute('type')).toBe('text');
    expect(field.getAttribute('placeholder')).toBe('dd/MM/yyyy');
    expect(screen.getByText('Day, month and year, e.g. 09/03/2014')).toBeTruthy();
  });

  it('takes dd/MM/yyyy, yyyy-MM-dd and the digits alone, and shows each as dd/MM/yyyy when left', async () => {
    renderScreen(<BirthDate />);
    const field = screen.getByRole<HTMLInputElement>('textbox', { name: /Date of birth/ });
    const user = userEvent.setup();
    for (const typed of ['9/3/2014', '2014-03-09', '20140309']) {
      await user.clear(field);
      await user.type(field, typed);
      await user.tab();
      expect(field.value, typed).toBe('09/03/2014');
    }
    // Something it cannot read stays as typed, for the form's message.
    await user.clear(field);
    await user.type(field, '31/02/2014');
    await user.tab();
    expect(field.value).toBe('31/02/2014');
  });

  it("shows the form's message in place of the example", () => {
    renderScreen(<BirthDate error="Enter your date of birth." />);
    expect(screen.getByText('Enter your date of birth.')).toBeTruthy();
    expect(screen.queryByText('Day, month and year, e.g. 09/03/2014')).toBeNull();
  });

  it('the first-time sign-in sends a dd/MM/yyyy date as yyyy-MM-dd', async () => {
    const bodies = answerFetch({ '/api/first-login': [401, { message: 'No account waiting for its first sign-in matches.', code: 'invalid_credentials' }] }, calls);
    renderScreen(<FirstLoginForm onSignedIn={() => undefined} />);
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: /pin or SEA number/ }), 'SEA2026-1048');
    await user.type(screen.getByRole('textbox', { name: /Date of birth/ }), '09/03/2014');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect((await screen.findByRole('alert')).textContent).toContain('No account waiting');
    expect(bodies.get('POST /api/first-login')).toEqual({ identifier: 'SEA2026-1048', date_of_birth: '2014-03-09', remember: false });
  });
});

describe('a student\'s forgotten password (D77)', () => {
  it('the student sign-in offers "Forgot your password?"', () => {
    const queryClient = createQueryClient();
    queryClient.setQueryData<SessionAnswer>(sessionQueryKey, { user: null });
    renderScreen(<StudentLoginPage />, { queryClient });
    expect(screen.getByRole('link', { name: 'Forgot your password?' }).getAttribute('href')).toBe('/forgot-password');
  });

  it('asks for the Student ID and date of birth, calls nothing for a blank form, and shows the answer as it comes', async () => {
    const bodies = answerFetch({ '/api/student-password/forgot': [202, { message: 'If the Student ID and date of birth are right, we sent a link.' }] }, calls);
    renderScreen(<StudentForgotPasswordPage />, { path: '/forgot-password' });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Send the link' }));
    expect(screen.getByText('Student ID is required.')).toBeTruthy();
    expect(screen.getByText('Enter the date of birth.')).toBeTruthy();
    expect(calls).toEqual([]);
    await user.type(screen.getByRole('textbox', { name: /Student ID/ }), '20240001');
    await user.type(screen.getByRole('textbox', { name: /Date of birth/ }), '21/07/2012');
    await user.click(screen.getByRole('button', { name: 'Send the link' }));
    expect((await screen.findByRole('status')).textContent).toContain('we sent a link');
    expect(bodies.get('POST /api/student-password/forgot')).toEqual({ student_id: '20240001', date_of_birth: '2012-07-21' });
  });

  it('the link\'s page holds the new password to the rule before sending, then says to sign in', async () => {
    const token = 'a'.repeat(43);
    const bodies = answerFetch({ '/api/student-password/reset': [200, { message: 'The new password is saved. Sign in with Student ID 20240001 and the new password.', student_id: '20240001' }] }, calls);
    renderScreen(<StudentResetPasswordPage />, { path: `/reset-password?token=${token}` });
    expect(screen.getByText(NEW_PASSWORD_HINT)).toBeTruthy();
    const user = userEvent.setup();
    const fill = async (label: RegExp, text: string) => {
      await user.clear(screen.getByLabelText(label));
      await user.click(screen.getByLabelText(label));
      await user.paste(text);
    };
    await fill(/^New password/, 'password123');
    await fill(/^Confirm password/, 'password123');
    await user.click(screen.getByRole('button', { name: 'Save new password' }));
    expect(screen.getByText(STAFF_PASSWORD_TOO_SHORT)).toBeTruthy();
    expect(calls).toEqual([]);
    await fill(/^New password/, 'a-new-student-passphrase');
    await fill(/^Confirm password/, 'a-new-student-passphrase');
    await user.click(screen.getByRole('button', { name: 'Save new password' }));
    expect((await screen.findByRole('status')).textContent).toContain('Sign in with Student ID 20240001');
    expect(screen.getByRole('link', { name: 'Go to the student sign-in' }).getAttribute('href')).toBe('/');
    expect(bodies.get('POST /api/student-password/reset')).toEqual({ token, password: 'a-new-student-passphrase' });
  });

  it('a link cut short says so and offers a new one', () => {
    renderScreen(<StudentResetPasswordPage />, { path: '/reset-password?token=abc' });
    expect(screen.getByRole('alert').textContent).toContain('This link is incomplete');
    expect(screen.getByRole('link', { name: 'Ask for a new link' }).getAttribute('href')).toBe('/forgot-password');
  });
});
