import { lazy, type ComponentType } from 'react';
import ContactPhoneIcon from '@mui/icons-material/ContactPhone';
import DashboardIcon from '@mui/icons-material/Dashboard';
import DriveFolderUploadIcon from '@mui/icons-material/DriveFolderUpload';
import EditCalendarIcon from '@mui/icons-material/EditCalendar';
import EventAvailableIcon from '@mui/icons-material/EventAvailable';
import EventNoteIcon from '@mui/icons-material/EventNote';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import FactCheckIcon from '@mui/icons-material/FactCheck';
import GradingIcon from '@mui/icons-material/Grading';
import PostAddIcon from '@mui/icons-material/PostAdd';
import PrivacyTipIcon from '@mui/icons-material/PrivacyTip';
import QrCodeScannerIcon from '@mui/icons-material/QrCodeScanner';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import type { AdminMenuEntry, AdminScreenProps } from '../admin/admin-menu.js';

/**
 * The admin area's menu (SPEC §2 Admin dashboard): every option is shown (the spec's other reading
 * hides Export Data, Reports and Import Students; docs/decisions.md D19). Each screen lives in
 * the feature that owns its data and is loaded when first opened. Adding a screen is one entry.
 */

const screen = <M,>(load: () => Promise<M>, name: keyof M): ComponentType<AdminScreenProps> =>
  lazy(async () => ({ default: (await load())[name] as ComponentType<AdminScreenProps> }));

export const ADMIN_MENU: readonly AdminMenuEntry[] = [
  { id: 'dashboard', label: 'Dashboard', icon: <DashboardIcon />, screen: screen(() => import('./dashboard-screen.js'), 'default') },
  { id: 'exportData', label: 'Export Data', icon: <FileDownloadIcon />, screen: screen(() => import('../admin/export-data-screen.js'), 'default') },
  { id: 'reports', group: 'reports', label: 'Registration Report', icon: <FactCheckIcon />, screen: screen(() => import('../admin/report-screens.js'), 'RegistrationReportScreen') },
  { id: 'parentsContact', group: 'reports', label: 'Parents Contact', icon: <ContactPhoneIcon />, screen: screen(() => import('../admin/report-screens.js'), 'ParentsContactScreen') },
  { id: 'classAttendance', group: 'reports', label: 'Class Attendance', icon: <EventAvailableIcon />, screen: screen(() => import('../attendance/class-attendance.js'), 'ClassAttendance') },
  { id: 'importStudents', label: 'Import Students', icon: <UploadFileIcon />, screen: screen(() => import('../admin/import-students-screen.js'), 'default') },
  { id: 'postReports', label: 'Post Term Reports', icon: <PostAddIcon />, screen: screen(() => import('../term-reports/post-term-reports.js'), 'PostTermReports') },
  { id: 'importTermResults', label: 'Import Term Results', icon: <GradingIcon />, screen: screen(() => import('../term-reports/import-term-results.js'), 'ImportTermResults') },
  { id: 'registrationSettings', label: 'Registration Settings', icon: <EventNoteIcon />, screen: screen(() => import('../registration/registration-settings.js'), 'RegistrationSettings') },
  { id: 'scannerDevices', label: 'Scanner Devices', icon: <QrCodeScannerIcon />, screen: screen(() => import('../attendance/scanner-devices.js'), 'ScannerDevices') },
  { id: 'importAttendance', label: 'Import Attendance', icon: <DriveFolderUploadIcon />, screen: screen(() => import('../attendance/import-attendance.js'), 'ImportAttendance') },
  { id: 'attendanceSettings', label: 'Attendance Settings', icon: <EditCalendarIcon />, screen: screen(() => import('../attendance/attendance-settings.js'), 'AttendanceSettings') },
  { id: 'privacy', label: 'Privacy', icon: <PrivacyTipIcon />, screen: screen(() => import('../admin/privacy.js'), 'Privacy') },
];
