/**
 * Who may call each route: the table the access matrix compares the running app with. A person
 * writes and reviews every row; nothing here is read from the routes' own declarations, so a route
 * that declares the wrong action fails the matrix instead of passing every cell with it.
 *
 * One row per route and method, keyed `METHOD /url` exactly as Fastify's route table has it (a
 * HEAD route follows its GET's row; HEAD has a row of its own only where there is no GET):
 * - the action the route declares in `config.access` (src/server/http/access.ts): `public`,
 *   `visitor`, `signed-in`, `family`, `device`, or a school or student action such as
 *   `student.family` (src/shared/staff.ts);
 * - what each kind of caller gets, one column each, in this order:
 *
 *     V   a visitor (no session)
 *     S   a student, on their own record          s   a student, on another student's record
 *     P   a parent, on their linked child         p   a parent, on a child not linked to them
 *     T   the form teacher of the named class     t   a form teacher of another class
 *     O   the office        Pr  the principal     A   an administrator
 *
 *   The column's letter means allowed (the route sample's success status); `-` means refused with
 *   403 `forbidden`; `!` means refused with 401 `unauthenticated` (no session, or a gate scanner's
 *   route called without the scanner's key). On a route that acts on the caller's own account
 *   (`signed-in`, `family`), `s` and `p` are the same people calling about themselves, so they are
 *   allowed wherever the call names no other student.
 *
 * Adding a route: add its row here under its feature, saying what a school would want, and a
 * sample call in tests/support/security/route-samples.ts; the matrix fails until both exist.
 */

/** The callers, in the table's column order. */
export const TABLE_CALLERS = ['visitor', 'own', 'other', 'parent', 'parent-other', 'teacher', 'teacher-other', 'office', 'principal', 'admin'] as const;
export type TableCaller = (typeof TABLE_CALLERS)[number];
/** Each column's letter for allowed. */
export const CALLER_LETTERS: Record<TableCaller, string> = {
  visitor: 'V',
  own: 'S',
  other: 's',
  parent: 'P',
  'parent-other': 'p',
  teacher: 'T',
  'teacher-other': 't',
  office: 'O',
  principal: 'Pr',
  admin: 'A',
};

export type Outcome = 'allowed' | 'forbidden' | 'unauthenticated';

export interface AccessRow {
  /** The action the route must declare in `config.access`. */
  action: string;
  /** What each caller gets. */
  callers: Record<TableCaller, Outcome>;
}
type AccessSection = Record<string, AccessRow>;

/** Reads one row's cells; a cell in the wrong column (a letter not its own) throws, so a misaligned edit cannot pass. */
function row(action: string, cells: string): AccessRow {
  const tokens = cells.trim().split(/\s+/);
  if (tokens.length !== TABLE_CALLERS.length) throw new Error(`${action} '${cells}': ${tokens.length} cells, expected ${TABLE_CALLERS.length}`);
  const callers = {} as Record<TableCaller, Outcome>;
  TABLE_CALLERS.forEach((caller, i) => {
    const token = tokens[i];
    if (token === '-') callers[caller] = 'forbidden';
    else if (token === '!') callers[caller] = 'unauthenticated';
    else if (token === CALLER_LETTERS[caller]) callers[caller] = 'allowed';
    else throw new Error(`${action} '${cells}': cell ${i + 1} is '${token}', expected '${CALLER_LETTERS[caller]}', '-' or '!'`);
  });
  return { action, callers };
}

/** Open to anyone, signed in or not: the CSRF cookie, health checks, the API docs, the session answer, signing out. */
// prettier-ignore
const PUBLIC: AccessSection = {
  //                                                                                                   V  S  s  P  p  T  t  O  Pr A
  'GET /sanctum/csrf-cookie':                                           row('public',                  'V  S  s  P  p  T  t  O  Pr A'),
  'GET /api/health':                                                    row('public',                  'V  S  s  P  p  T  t  O  Pr A'),
  'GET /api/health/ready':                                              row('public',                  'V  S  s  P  p  T  t  O  Pr A'),
  'HEAD /api/docs':                                                     row('public',                  'V  S  s  P  p  T  t  O  Pr A'),
  'GET /api/docs/':                                                     row('public',                  'V  S  s  P  p  T  t  O  Pr A'),
  'GET /api/docs/static/index.html':                                    row('public',                  'V  S  s  P  p  T  t  O  Pr A'),
  'GET /api/docs/static/swagger-initializer.js':                        row('public',                  'V  S  s  P  p  T  t  O  Pr A'),
  'GET /api/docs/json':                                                 row('public',                  'V  S  s  P  p  T  t  O  Pr A'),
  'GET /api/docs/yaml':                                                 row('public',                  'V  S  s  P  p  T  t  O  Pr A'),
  'GET /api/docs/static/*':                                             row('public',                  'V  S  s  P  p  T  t  O  Pr A'),
  'GET /api/session':                                                   row('public',                  'V  S  s  P  p  T  t  O  Pr A'),
  'POST /logout':                                                       row('public',                  'V  S  s  P  p  T  t  O  Pr A'),
};

/** Signing in and passwords: the sign-in calls answer anyone; a password change acts on the caller's own account; resetting a student's password is the office's. */
// prettier-ignore
const SIGN_IN: AccessSection = {
  //                                                                                                   V  S  s  P  p  T  t  O  Pr A
  'POST /api/login-student':                                            row('visitor',                 'V  S  s  P  p  T  t  O  Pr A'),
  'POST /api/first-login':                                              row('visitor',                 'V  S  s  P  p  T  t  O  Pr A'),
  'GET /api/user/:student_id':                                          row('visitor',                 'V  S  s  P  p  T  t  O  Pr A'),
  'POST /api/admin-login':                                              row('visitor',                 'V  S  s  P  p  T  t  O  Pr A'),
  'POST /api/admin-login/totp':                                         row('visitor',                 'V  S  s  P  p  T  t  O  Pr A'),
  // Staff sign-in through the school's provider (D96): page loads that end in a redirect; without OIDC_* back to the sign-in page.
  'GET /api/staff-sign-in':                                             row('public',                  'V  S  s  P  p  T  t  O  Pr A'),
  'GET /api/oidc/:provider/start':                                      row('visitor',                 'V  S  s  P  p  T  t  O  Pr A'),
  'GET /api/oidc/:provider/callback':                                   row('visitor',                 'V  S  s  P  p  T  t  O  Pr A'),
  'POST /api/find-student-id':                                          row('visitor',                 'V  S  s  P  p  T  t  O  Pr A'),
  'POST /api/student-password/forgot':                                  row('visitor',                 'V  S  s  P  p  T  t  O  Pr A'),
  'POST /api/student-password/reset':                                   row('visitor',                 'V  S  s  P  p  T  t  O  Pr A'),
  'POST /api/change-password-student':                                  row('signed-in',               '!  S  -  -  -  -  -  -  -  -'),
  'POST /api/reset-password-student':                                   row('student.reset-password',  '!  -  -  -  -  -  -  O  -  A'),
};

/** The staff second factor: each staff member's own; students and families have none (403 from the route). */
// prettier-ignore
const SECOND_FACTOR: AccessSection = {
  //                                                                                                   V  S  s  P  p  T  t  O  Pr A
  'GET /api/staff-2fa':                                                 row('signed-in',               '!  -  -  -  -  T  t  O  Pr A'),
  'POST /api/staff-2fa/enrol':                                          row('signed-in',               '!  -  -  -  -  T  t  O  Pr A'),
  'POST /api/staff-2fa/confirm':                                        row('signed-in',               '!  -  -  -  -  T  t  O  Pr A'),
  'DELETE /api/staff-2fa':                                              row('signed-in',               '!  -  -  -  -  T  t  O  Pr A'),
};

/** The registration record: the student, their parents and the staff who reach them read it; the student, their parents and the office edit it; the windows are administrators'. The status names no one's data (a form level's window), so any signed-in caller asking about themselves is answered. */
// prettier-ignore
const REGISTRATION: AccessSection = {
  //                                                                                                   V  S  s  P  p  T  t  O  Pr A
  'GET /api/student-record/:userID':                                    row('student.read',            '!  S  -  P  -  T  -  O  Pr A'),
  'POST /api/student':                                                  row('student.edit',            '!  S  -  P  -  -  -  O  -  A'),
  'GET /api/registration-status':                                       row('signed-in',               '!  S  s  P  -  T  t  O  Pr A'),
  'GET /api/registration-periods':                                      row('settings.read',           '!  -  -  -  -  T  t  O  Pr A'),
  'PUT /api/registration-periods':                                      row('settings.manage',         '!  -  -  -  -  -  -  -  -  A'),
  'DELETE /api/registration-periods/:formLevel':                        row('settings.manage',         '!  -  -  -  -  -  -  -  -  A'),
};

/** Uploaded documents: read like the record, changed like the record. */
// prettier-ignore
const DOCUMENTS: AccessSection = {
  //                                                                                                   V  S  s  P  p  T  t  O  Pr A
  'POST /api/store-file':                                               row('student.edit',            '!  S  -  P  -  -  -  O  -  A'),
  'GET /api/get-files/:student_id':                                     row('student.read',            '!  S  -  P  -  T  -  O  Pr A'),
  'GET /api/student-data-files/:studentId':                             row('student.read',            '!  S  -  P  -  T  -  O  Pr A'),
  'POST /api/student-data-files':                                       row('student.edit',            '!  S  -  P  -  -  -  O  -  A'),
  'DELETE /api/file':                                                   row('student.edit',            '!  S  -  P  -  -  -  O  -  A'),
  'GET /api/documents/:publicId':                                       row('student.read',            '!  S  -  P  -  T  -  O  Pr A'),
  'GET /api/documents/:publicId/thumbnail':                             row('student.read',            '!  S  -  P  -  T  -  O  Pr A'),
};

/** The registration form and report cards: per student like the record; per class for that class's form teacher; school-wide results for the office and principal. */
// prettier-ignore
const REPORTS: AccessSection = {
  //                                                                                                   V  S  s  P  p  T  t  O  Pr A
  'GET /api/registration-form/:studentId':                              row('student.read',            '!  S  -  P  -  T  -  O  Pr A'),
  'GET /api/registration-form/:studentId/content':                      row('student.read',            '!  S  -  P  -  T  -  O  Pr A'),
  'GET /api/report-card-terms/:userID':                                 row('student.read',            '!  S  -  P  -  T  -  O  Pr A'),
  'GET /api/report-card/:studentId/:year/:term':                        row('student.read',            '!  S  -  P  -  T  -  O  Pr A'),
  'GET /api/term-reports-posted':                                       row('term-reports.read',       '!  -  -  -  -  T  t  O  Pr A'),
  'GET /api/report-cards/class/:classId/:year/:term':                   row('class.read',              '!  -  -  -  -  T  -  O  Pr A'),
  'GET /api/report-cards/form/:formLevel/:year/:term':                  row('students.export',         '!  -  -  -  -  -  -  O  Pr A'),
  'POST /api/post-term-reports':                                        row('term-reports.post',       '!  -  -  -  -  -  -  O  Pr A'),
  'POST /api/term-reports/schedule':                                    row('term-reports.post',       '!  -  -  -  -  -  -  O  Pr A'),
  'GET /api/term-results/template':                                     row('term-results.read',       '!  -  -  -  -  -  -  O  Pr A'),
  'GET /api/term-results/grading':                                      row('term-results.read',       '!  -  -  -  -  -  -  O  Pr A'),
  'GET /api/term-results/subjects':                                     row('term-results.read',       '!  -  -  -  -  -  -  O  Pr A'),
  'POST /api/term-results/import':                                      row('term-results.import',     '!  -  -  -  -  -  -  O  -  A'),
};

/** Attendance: per student like the record, per class for its form teacher; gate scanners sign with their own key, never a session (401 for everyone). */
// prettier-ignore
const ATTENDANCE: AccessSection = {
  //                                                                                                   V  S  s  P  p  T  t  O  Pr A
  'GET /api/student-attendance/:userID':                                row('student.read',            '!  S  -  P  -  T  -  O  Pr A'),
  'GET /api/student-attendance-report/:studentId/:startDate/:endDate':  row('student.read',            '!  S  -  P  -  T  -  O  Pr A'),
  'POST /api/attendance/scans':                                         row('device',                  '!  !  !  !  !  !  !  !  !  !'),
  'GET /api/class-attendance':                                          row('class.read',              '!  -  -  -  -  T  -  O  Pr A'),
  'GET /api/class-attendance/pdf':                                      row('class.read',              '!  -  -  -  -  T  -  O  Pr A'),
  'GET /api/class-attendance/xlsx':                                     row('class.read',              '!  -  -  -  -  T  -  O  Pr A'),
  'GET /api/scanner-devices':                                           row('scanners.manage',         '!  -  -  -  -  -  -  -  -  A'),
  'POST /api/scanner-devices':                                          row('scanners.manage',         '!  -  -  -  -  -  -  -  -  A'),
  'DELETE /api/scanner-devices/:id':                                    row('scanners.manage',         '!  -  -  -  -  -  -  -  -  A'),
  'POST /api/attendance/import':                                        row('attendance.import',       '!  -  -  -  -  -  -  O  -  A'),
  'GET /api/attendance/settings':                                       row('settings.read',           '!  -  -  -  -  T  t  O  Pr A'),
  'PUT /api/attendance/settings':                                       row('settings.manage',         '!  -  -  -  -  -  -  -  -  A'),
  'GET /api/attendance/holidays':                                       row('settings.read',           '!  -  -  -  -  T  t  O  Pr A'),
  'POST /api/attendance/holidays':                                      row('settings.manage',         '!  -  -  -  -  -  -  -  -  A'),
  'DELETE /api/attendance/holidays/:id':                                row('settings.manage',         '!  -  -  -  -  -  -  -  -  A'),
};

/**
 * Absence notes are health data (docs/decisions.md D93). The family sends, withdraws and reads its
 * child's notes; a student sends their own only while no family account is linked (the demo
 * student is linked to the demo family, so S is refused sending) and reads only the notes they
 * sent (the samples' notes are the family's, so S is refused reading one); the class's form
 * teacher, the office, the principal and an administrator read them; the queue and the decisions
 * are those staff's, a form teacher's for their classes only. No staff member sends or withdraws.
 */
// prettier-ignore
const ABSENCE_NOTES: AccessSection = {
  //                                                                                                   V  S  s  P  p  T  t  O  Pr A
  'POST /api/absence-notes':                                            row('absence-notes.send',      '!  -  -  P  -  -  -  -  -  -'),
  'GET /api/absence-notes':                                             row('absence-notes.read',      '!  S  -  P  -  T  -  O  Pr -'),
  'GET /api/absence-notes/:id':                                         row('absence-notes.read',      '!  -  -  P  -  T  -  O  Pr -'),
  'GET /api/absence-notes/:id/attachment':                              row('absence-notes.read',      '!  -  -  P  -  T  -  O  Pr -'),
  'POST /api/absence-notes/:id/withdraw':                               row('absence-notes.send',      '!  -  -  P  -  -  -  -  -  -'),
  'GET /api/absence-notes/queue':                                       row('absence-notes.review',    '!  -  -  -  -  T  t  O  Pr -'),
  'POST /api/absence-notes/:id/decision':                               row('absence-notes.review',    '!  -  -  -  -  T  -  O  Pr -'),
};

/** The form's choice lists: open to anyone, since the registration form needs them before sign-in. */
// prettier-ignore
const LOOKUPS: AccessSection = {
  //                                                                                                   V  S  s  P  p  T  t  O  Pr A
  'GET /api/towns':                                                     row('public',                  'V  S  s  P  p  T  t  O  Pr A'),
  'GET /api/regional-corporation':                                      row('public',                  'V  S  s  P  p  T  t  O  Pr A'),
  'GET /api/religions':                                                 row('public',                  'V  S  s  P  p  T  t  O  Pr A'),
  'GET /api/ethnic-groups':                                             row('public',                  'V  S  s  P  p  T  t  O  Pr A'),
  'GET /api/houses':                                                    row('public',                  'V  S  s  P  p  T  t  O  Pr A'),
  'GET /api/form-classes-list':                                         row('public',                  'V  S  s  P  p  T  t  O  Pr A'),
  'GET /api/primary-schools':                                           row('public',                  'V  S  s  P  p  T  t  O  Pr A'),
};

/** The student list (narrowed to a form teacher's classes), class reports, school-wide exports and adding students. */
// prettier-ignore
const STUDENTS: AccessSection = {
  //                                                                                                   V  S  s  P  p  T  t  O  Pr A
  'GET /api/students':                                                  row('students.list',           '!  -  -  -  -  T  t  O  Pr A'),
  'GET /api/students/:studentId/history':                               row('student.history',         '!  -  -  -  -  T  -  O  Pr A'),
  'GET /api/registration-data-spreadsheet':                             row('students.export',         '!  -  -  -  -  -  -  O  Pr A'),
  'GET /api/registration-report/:classId':                              row('class.read',              '!  -  -  -  -  T  -  O  Pr A'),
  'GET /api/parents-contact/:classId':                                  row('class.read',              '!  -  -  -  -  T  -  O  Pr A'),
  'GET /api/parents-contact-spreadsheet/:classId':                      row('class.read',              '!  -  -  -  -  T  -  O  Pr A'),
  'GET /api/students/call-list':                                        row('students.export',         '!  -  -  -  -  -  -  O  Pr A'),
  'GET /api/students/import-template':                                  row('students.add',            '!  -  -  -  -  -  -  O  -  A'),
  'POST /api/students':                                                 row('students.add',            '!  -  -  -  -  -  -  O  -  A'),
  'POST /api/students/import':                                          row('students.add',            '!  -  -  -  -  -  -  O  -  A'),
  'POST /api/students/bulk/summary':                                    row('students.list',           '!  -  -  -  -  T  t  O  Pr A'),
  'POST /api/students/bulk/class':                                      row('students.add',            '!  -  -  -  -  -  -  O  -  A'),
  'POST /api/students/bulk/invitations':                                row('families.manage',         '!  -  -  -  -  -  -  O  -  A'),
  'POST /api/students/bulk/paper-documents':                            row('documents.review',        '!  -  -  -  -  -  -  O  -  A'),
  'GET /api/class-list/:classId':                                       row('class.read',              '!  -  -  -  -  T  -  O  Pr A'),
  'GET /api/class-register/:classId':                                  row('class.read',              '!  -  -  -  -  T  -  O  Pr A'),
};

/** The new Form 1 from the placement list: the office and administrators. */
// prettier-ignore
const INTAKE: AccessSection = {
  //                                                                                                   V  S  s  P  p  T  t  O  Pr A
  'GET /api/intake':                                                    row('intake.manage',           '!  -  -  -  -  -  -  O  -  A'),
  'POST /api/intake/import':                                            row('intake.manage',           '!  -  -  -  -  -  -  O  -  A'),
  'POST /api/intake/balance':                                           row('intake.manage',           '!  -  -  -  -  -  -  O  -  A'),
  'PATCH /api/intake/students/:id':                                     row('intake.manage',           '!  -  -  -  -  -  -  O  -  A'),
  'DELETE /api/intake':                                                 row('intake.manage',           '!  -  -  -  -  -  -  O  -  A'),
  'POST /api/intake/finalise':                                          row('intake.manage',           '!  -  -  -  -  -  -  O  -  A'),
  'POST /api/intake/finalises/:id/undo':                                row('intake.manage',           '!  -  -  -  -  -  -  O  -  A'),
};

/** Staff accounts: administrators only; each staff member changes their own password. */
// prettier-ignore
const STAFF: AccessSection = {
  //                                                                                                   V  S  s  P  p  T  t  O  Pr A
  'GET /api/staff':                                                     row('staff.manage',            '!  -  -  -  -  -  -  -  -  A'),
  'POST /api/staff':                                                    row('staff.manage',            '!  -  -  -  -  -  -  -  -  A'),
  'PATCH /api/staff/:id':                                               row('staff.manage',            '!  -  -  -  -  -  -  -  -  A'),
  'POST /api/staff/:id/reset-second-factor':                            row('staff.manage',            '!  -  -  -  -  -  -  -  -  A'),
  'POST /api/change-password-staff':                                    row('signed-in',               '!  -  -  -  -  T  t  O  Pr A'),
};

/** Family accounts: a family's own calls are its own; who is linked to a child is the office's; a student may invite a parent to their own record. */
// prettier-ignore
const FAMILY: AccessSection = {
  //                                                                                                   V  S  s  P  p  T  t  O  Pr A
  'POST /api/family/register':                                          row('visitor',                 'V  S  s  P  p  T  t  O  Pr A'),
  'POST /api/family/verify':                                            row('visitor',                 'V  S  s  P  p  T  t  O  Pr A'),
  'POST /api/family/login':                                             row('visitor',                 'V  S  s  P  p  T  t  O  Pr A'),
  'POST /api/family/forgot-password':                                   row('visitor',                 'V  S  s  P  p  T  t  O  Pr A'),
  'POST /api/family/reset-password':                                    row('visitor',                 'V  S  s  P  p  T  t  O  Pr A'),
  'GET /api/family/children':                                           row('family',                  '!  -  -  P  p  -  -  -  -  -'),
  'GET /api/family/home':                                               row('family',                  '!  -  -  P  p  -  -  -  -  -'),
  'POST /api/family/link':                                              row('family',                  '!  -  -  P  p  -  -  -  -  -'),
  'POST /api/family/accept':                                            row('family',                  '!  -  -  P  p  -  -  -  -  -'),
  'DELETE /api/family/children/:student_id':                            row('family',                  '!  -  -  P  p  -  -  -  -  -'),
  'GET /api/students/:student_id/family':                               row('student.family',          '!  -  -  -  -  -  -  O  -  A'),
  'POST /api/students/:student_id/family':                              row('student.family',          '!  -  -  -  -  -  -  O  -  A'),
  'DELETE /api/students/:student_id/family/:user_id':                   row('student.family',          '!  -  -  -  -  -  -  O  -  A'),
  'POST /api/students/:student_id/family-code':                         row('student.family',          '!  -  -  -  -  -  -  O  -  A'),
  'POST /api/students/:student_id/family-invitations':                  row('student.invite-family',   '!  S  -  -  -  -  -  O  -  A'),
  'POST /api/family-letters/:class_id':                                 row('families.manage',         '!  -  -  -  -  -  -  O  -  A'),
};

/** The office's review of documents and registrations; the review's answer on a record is read like the record. */
// prettier-ignore
const REVIEW: AccessSection = {
  //                                                                                                   V  S  s  P  p  T  t  O  Pr A
  'GET /api/review/documents':                                          row('documents.review',        '!  -  -  -  -  -  -  O  -  A'),
  'POST /api/review/documents/:publicId':                               row('documents.review',        '!  -  -  -  -  -  -  O  -  A'),
  'GET /api/registration-review/:studentId':                            row('student.read',            '!  S  -  P  -  T  -  O  Pr A'),
  'POST /api/review/registrations/:studentId/verify':                   row('registrations.review',    '!  -  -  -  -  -  -  O  -  A'),
  'POST /api/review/registrations/:studentId/return':                   row('registrations.review',    '!  -  -  -  -  -  -  O  -  A'),
  'POST /api/review/registrations/:studentId/reopen':                   row('registrations.review',    '!  -  -  -  -  -  -  O  -  A'),
  'GET /api/review/students/:studentId':                                row('registrations.review',    '!  -  -  -  -  -  -  O  -  A'),
  'GET /api/review/students/:studentId/notice':                         row('registrations.review',    '!  -  -  -  -  -  -  O  -  A'),
};

/** Re-registration: administrators open and close a year; the record's readers read it, its editors confirm steps. */
// prettier-ignore
const RE_REGISTRATION: AccessSection = {
  //                                                                                                   V  S  s  P  p  T  t  O  Pr A
  'GET /api/re-registrations':                                          row('settings.read',           '!  -  -  -  -  T  t  O  Pr A'),
  'POST /api/re-registrations':                                         row('settings.manage',         '!  -  -  -  -  -  -  -  -  A'),
  'DELETE /api/re-registrations/:year':                                 row('settings.manage',         '!  -  -  -  -  -  -  -  -  A'),
  'GET /api/students/:studentId/re-registration':                       row('student.read',            '!  S  -  P  -  T  -  O  Pr A'),
  'POST /api/students/:studentId/re-registration/:step':                row('student.edit',            '!  S  -  P  -  -  -  O  -  A'),
  'GET /api/review/re-registrations/:studentId':                        row('registrations.review',    '!  -  -  -  -  -  -  O  -  A'),
};

/** The Outbox holds every message the portal sends: administrators only. */
// prettier-ignore
const OUTBOX: AccessSection = {
  //                                                                                                   V  S  s  P  p  T  t  O  Pr A
  'GET /api/outbox':                                                    row('outbox.manage',           '!  -  -  -  -  -  -  O  -  A'),
  'POST /api/outbox/test':                                              row('outbox.manage',           '!  -  -  -  -  -  -  O  -  A'),
  'POST /api/outbox/:id/resend':                                        row('outbox.manage',           '!  -  -  -  -  -  -  O  -  A'),
};

/** Messages to families: each person's own notices; preferences are a family's; the school's settings and parents' addresses are the office's. */
// prettier-ignore
const NOTICES: AccessSection = {
  //                                                                                                   V  S  s  P  p  T  t  O  Pr A
  'GET /api/notices':                                                   row('signed-in',               '!  S  s  P  p  T  t  O  Pr A'),
  'POST /api/notices/:id/read':                                         row('family',                  '!  -  -  P  p  -  -  -  -  -'),
  'GET /api/notice-preferences':                                        row('family',                  '!  -  -  P  p  -  -  -  -  -'),
  'PUT /api/notice-preferences':                                        row('family',                  '!  -  -  P  p  -  -  -  -  -'),
  'POST /api/notices/unsubscribe':                                      row('public',                  'V  S  s  P  p  T  t  O  Pr A'),
  'GET /api/mail/unsubscribe':                                          row('public',                  'V  S  s  P  p  T  t  O  Pr A'),
  'POST /api/mail/unsubscribe':                                         row('public',                  'V  S  s  P  p  T  t  O  Pr A'),
  'GET /api/notice-settings':                                           row('notices.manage',          '!  -  -  -  -  -  -  O  -  A'),
  'PUT /api/notice-settings':                                           row('notices.manage',          '!  -  -  -  -  -  -  O  -  A'),
  'GET /api/deadline-reminders/preview':                                row('notices.manage',          '!  -  -  -  -  -  -  O  -  A'),
  'POST /api/deadline-reminders':                                       row('notices.manage',          '!  -  -  -  -  -  -  O  -  A'),
  'GET /api/students/:student_id/parent-emails':                        row('student.family',          '!  -  -  -  -  -  -  O  -  A'),
  'PUT /api/students/:student_id/parent-emails/:parent':                row('student.family',          '!  -  -  -  -  -  -  O  -  A'),
};

/** A student's enrolment history: staff read it (a form teacher their classes'); the office withdraws and readmits. */
// prettier-ignore
const ENROLMENT: AccessSection = {
  //                                                                                                   V  S  s  P  p  T  t  O  Pr A
  'GET /api/enrolment/:studentId':                                      row('student.history', '!  -  -  -  -  T  -  O  Pr A'),
  'POST /api/enrolment/:studentId/withdraw':                            row('student.enrolment',       '!  -  -  -  -  -  -  O  -  A'),
  'POST /api/enrolment/:studentId/readmit':                             row('student.enrolment',       '!  -  -  -  -  -  -  O  -  A'),
};

/** The new school year moves every student: administrators only. */
// prettier-ignore
const ROLLOVER: AccessSection = {
  //                                                                                                   V  S  s  P  p  T  t  O  Pr A
  'GET /api/year-rollover':                                             row('year.rollover',           '!  -  -  -  -  -  -  -  -  A'),
  'POST /api/year-rollover/preview':                                    row('year.rollover',           '!  -  -  -  -  -  -  -  -  A'),
  'POST /api/year-rollover':                                            row('year.rollover',           '!  -  -  -  -  -  -  -  -  A'),
  'POST /api/year-rollover/:id/undo':                                   row('year.rollover',           '!  -  -  -  -  -  -  -  -  A'),
};

/** The audit log, a student's history, the privacy export and deletion: administrators only. */
// prettier-ignore
const PRIVACY: AccessSection = {
  //                                                                                                   V  S  s  P  p  T  t  O  Pr A
  'GET /api/privacy/audit-log':                                         row('privacy.manage',          '!  -  -  -  -  -  -  -  -  A'),
  'GET /api/privacy/students/:studentId/history':                       row('privacy.manage',          '!  -  -  -  -  -  -  -  -  A'),
  'GET /api/privacy/students/:studentId/export':                        row('privacy.manage',          '!  -  -  -  -  -  -  -  -  A'),
  'DELETE /api/privacy/students/:studentId':                            row('privacy.manage',          '!  -  -  -  -  -  -  -  -  A'),
};

/** The features in the order a reviewer reads them; the matrix runs them in parts of these. */
export const ACCESS_SECTIONS = {
  PUBLIC,
  SIGN_IN,
  SECOND_FACTOR,
  REGISTRATION,
  DOCUMENTS,
  REPORTS,
  ATTENDANCE,
  ABSENCE_NOTES,
  LOOKUPS,
  STUDENTS,
  INTAKE,
  ENROLMENT,
  STAFF,
  FAMILY,
  REVIEW,
  RE_REGISTRATION,
  OUTBOX,
  NOTICES,
  ROLLOVER,
  PRIVACY,
} as const;
export type AccessSectionName = keyof typeof ACCESS_SECTIONS;

/** Every row, keyed `METHOD /url`. */
export const ACCESS_TABLE: Readonly<Record<string, AccessRow>> = Object.fromEntries(Object.values(ACCESS_SECTIONS).flatMap((section) => Object.entries(section)));

/** The row of a route: its own, or for a HEAD route its GET's. */
export function accessRowFor(method: string, url: string): AccessRow | undefined {
  return ACCESS_TABLE[`${method} ${url}`] ?? (method === 'HEAD' ? ACCESS_TABLE[`GET ${url}`] : undefined);
}
