import { lazy, type ComponentType, type ReactNode } from 'react';
import AssessmentIcon from '@mui/icons-material/Assessment';
import ContactPhoneIcon from '@mui/icons-material/ContactPhone';
import DashboardIcon from '@mui/icons-material/Dashboard';
import DriveFolderUploadIcon from '@mui/icons-material/DriveFolderUpload';
import EditCalendarIcon from '@mui/icons-material/EditCalendar';
import EventNoteIcon from '@mui/icons-material/EventNote';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import FactCheckIcon from '@mui/icons-material/FactCheck';
import GradingIcon from '@mui/icons-material/Grading';
import PostAddIcon from '@mui/icons-material/PostAdd';
import PrivacyTipIcon from '@mui/icons-material/PrivacyTip';
import QrCodeScannerIcon from '@mui/icons-material/QrCodeScanner';
import UploadFileIcon from '@mui/icons-material/UploadFile';

/**
 * The admin side menu (SPEC §2 Admin dashboard). Adding a screen is one entry in ADMIN_MENU: its
 * id (in the address, /admin/dashboard?view=<id>), label, icon, optional group, and the screen,
 * loaded on first open. Every option is shown (the spec's other reading hides Export Data,
 * Reports and Import Students; docs/decisions.md); only one is active at a time.
 */

/** What a screen is told: when its menu item was chosen (not set when the page is only reloaded). */
export interface AdminScreenProps {
  selectedAt?: number;
}

/** Headings that gather entries under them (SPEC §2: Reports with its sub-menu). */
export const ADMIN_MENU_GROUPS = {
  reports: { label: 'Reports', icon: <AssessmentIcon /> },
} as const;
export type AdminMenuGroup = keyof typeof ADMIN_MENU_GROUPS;

export interface AdminMenuEntry {
  id: string;
  label: string;
  icon: ReactNode;
  group?: AdminMenuGroup;
  screen: ComponentType<AdminScreenProps>;
}

/** A screen module's export, loaded when the screen is first opened. */
function lazyScreen<M>(load: () => Promise<M>, name: keyof M): ComponentType<AdminScreenProps> {
  return lazy(async () => ({ default: (await load())[name] as ComponentType<AdminScreenProps> }));
}

export const ADMIN_MENU: readonly AdminMenuEntry[] = [
  { id: 'dashboard', label: 'Dashboard', icon: <DashboardIcon />, screen: lazyScreen(() => import('./students-screen.js'), 'default') },
  { id: 'exportData', label: 'Export Data', icon: <FileDownloadIcon />, screen: lazyScreen(() => import('./export-data-screen.js'), 'default') },
  { id: 'reports', group: 'reports', label: 'Registration Report', icon: <FactCheckIcon />, screen: lazyScreen(() => import('./report-screens.js'), 'RegistrationReportScreen') },
  { id: 'parentsContact', group: 'reports', label: 'Parents Contact', icon: <ContactPhoneIcon />, screen: lazyScreen(() => import('./report-screens.js'), 'ParentsContactScreen') },
  { id: 'importStudents', label: 'Import Students', icon: <UploadFileIcon />, screen: lazyScreen(() => import('./import-students-screen.js'), 'default') },
  // Term reports (issue #5).
  { id: 'postReports', label: 'Post Term Reports', icon: <PostAddIcon />, screen: lazyScreen(() => import('./post-term-reports.js'), 'PostTermReports') },
  { id: 'importTermResults', label: 'Import Term Results', icon: <GradingIcon />, screen: lazyScreen(() => import('./import-term-results.js'), 'ImportTermResults') },
  // Registration (issue #3).
  { id: 'registrationSettings', label: 'Registration Settings', icon: <EventNoteIcon />, screen: lazyScreen(() => import('./registration-settings.js'), 'RegistrationSettings') },
  // Attendance (issue #6).
  { id: 'scannerDevices', label: 'Scanner Devices', icon: <QrCodeScannerIcon />, screen: lazyScreen(() => import('./scanner-devices.js'), 'ScannerDevices') },
  { id: 'importAttendance', label: 'Import Attendance', icon: <DriveFolderUploadIcon />, screen: lazyScreen(() => import('./import-attendance.js'), 'ImportAttendance') },
  { id: 'attendanceSettings', label: 'Attendance Settings', icon: <EditCalendarIcon />, screen: lazyScreen(() => import('./attendance-settings.js'), 'AttendanceSettings') },
  // Privacy (issue #8): the audit log, a student's history, export and deletion.
  { id: 'privacy', label: 'Privacy', icon: <PrivacyTipIcon />, screen: lazyScreen(() => import('./privacy.js'), 'Privacy') },
];

/** The entry of a menu id; the Dashboard for anything unknown. */
export function findMenuEntry(id: string | null): AdminMenuEntry {
  return ADMIN_MENU.find((entry) => entry.id === id) ?? ADMIN_MENU[0]!;
}
