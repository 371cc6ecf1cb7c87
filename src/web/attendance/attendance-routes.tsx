import { AttendancePage } from './attendance-page.js';

/** Everything under /attendance (SPEC §2): one screen; loaded on first visit with its charts. */
export function AttendanceRoutes() {
  return <AttendancePage />;
}
