import type { ComponentType, ReactNode } from 'react';
import AssessmentIcon from '@mui/icons-material/Assessment';
import type { SchoolAction } from '../../shared/staff.js';

/**
 * The admin side menu's shape (docs/requirements.md R11). The entries themselves, each screen
 * from the feature that owns its data, are listed where the routes are wired
 * (app/admin-menu.tsx); only one is active at a time, and it is kept in the address
 * (/admin/dashboard?view=<id>). The shape lives here, not in app/, because a feature's screen
 * reads `AdminScreenProps` and a feature imports only components/ and lib/.
 */

/** What a screen is told: when its menu item was chosen (not set when the page is only reloaded). */
export interface AdminScreenProps {
  selectedAt?: number;
}

/** Headings that gather entries under them (R11: Reports with its sub-menu). */
export const ADMIN_MENU_GROUPS = {
  reports: { label: 'Reports', icon: <AssessmentIcon /> },
} as const;
export type AdminMenuGroup = keyof typeof ADMIN_MENU_GROUPS;

export interface AdminMenuEntry {
  id: string;
  label: string;
  icon: ReactNode;
  group?: AdminMenuGroup;
  /**
   * The school-wide action the screen needs (D49): shown only when the session's `permissions`
   * include it (the server decides; this only hides what would be refused). None: every staff role.
   */
  needs?: SchoolAction;
  /** The screen, loaded when it is first opened (React.lazy). */
  screen: ComponentType<AdminScreenProps>;
  /** Fetches the screen's code: the route starts it beside the menu's, so the two arrive together. */
  load: () => Promise<unknown>;
}

/** The entry of a menu id; the first (the Dashboard) for anything unknown. */
export function findMenuEntry(menu: readonly AdminMenuEntry[], id: string | null): AdminMenuEntry {
  return menu.find((entry) => entry.id === id) ?? menu[0]!;
}

/** The entries a person with these permissions may use, in menu order. */
export function menuFor(menu: readonly AdminMenuEntry[], permissions: readonly SchoolAction[]): AdminMenuEntry[] {
  return menu.filter((entry) => entry.needs === undefined || permissions.includes(entry.needs));
}
