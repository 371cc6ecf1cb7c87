/**
 * Paths of the registration calls a registration step makes at once, without their schemas (zod).
 * The web client's router asks for them while the screens' code downloads (router.tsx,
 * `requestEarly`), and the server names the same URLs in the page it answers as
 * `<link rel="preload" as="fetch">` (src/server/web-preloads.ts): one definition, so the browser
 * hands the preloaded answer to the client's fetch instead of asking twice.
 */

export const studentRecordPath = (id: string) => `/api/student-record/${encodeURIComponent(id)}`;

export const REGISTRATION_STATUS_PATH = '/api/registration-status';

/** The calls a registration step needs before it can show anything, for the student it shows. */
export const registrationCallsOf = (studentId: string): string[] => [studentRecordPath(studentId), REGISTRATION_STATUS_PATH];
