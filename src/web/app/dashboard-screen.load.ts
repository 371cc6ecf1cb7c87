/**
 * Fetches the admin area's first screen, the student list. The menu's Dashboard entry loads it
 * with this, and the /admin/dashboard route starts it beside the menu's own code, so a page
 * opened on the list waits for one round of files, not two (D64).
 */
export const loadDashboardScreen = () => import('./dashboard-screen.js');
