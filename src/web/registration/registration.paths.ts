/**
 * Paths of the registration calls the screens make at once, without their schemas (zod): the
 * router asks for them while the screens' code downloads (router.tsx, `requestEarly`).
 */

export const studentRecordPath = (id: string) => `/api/student-record/${encodeURIComponent(id)}`;

export const REGISTRATION_STATUS_PATH = '/api/registration-status';
