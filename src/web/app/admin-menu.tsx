import { lazy, type ComponentType } from 'react';
import ContactPhoneIcon from '@mui/icons-material/ContactPhone';
import DashboardIcon from '@mui/icons-material/Dashboard';
import DriveFolderUploadIcon from '@mui/icons-material/DriveFolderUpload';
import EventBusyIcon from '@mui/icons-material/EventBusy';
import EditCalendarIcon from '@mui/icons-material/EditCalendar';
import EventAvailableIcon from '@mui/icons-material/EventAvailable';
import EventNoteIcon from '@mui/icons-material/EventNote';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import FactCheckIcon from '@mui/icons-material/FactCheck';
import GradingIcon from '@mui/icons-material/Grading';
import GroupAddIcon from '@mui/icons-material/GroupAdd';
import MailOutlineIcon from '@mui/icons-material/MailOutline';
import MarkEmailUnreadIcon from '@mui/icons-material/MarkEmailUnread';
import ManageAccountsIcon from '@mui/icons-material/ManageAccounts';
import PostAddIcon from '@mui/icons-material/PostAdd';
import PrintIcon from '@mui/icons-material/Print';
import PrivacyTipIcon from '@mui/icons-material/PrivacyTip';
import QrCodeScannerIcon from '@mui/icons-material/QrCodeScanner';
import RateReviewIcon from '@mui/icons-material/RateReview';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import UpgradeIcon from '@mui/icons-material/Upgrade';
import type { AdminMenuEntry, AdminScreenProps } from '../components/admin-menu-entry.js';
import { loadDashboardScreen } from './dashboard-screen.load.js';

/**
 * The admin area's menu (docs/requirements.md R11): every option a role may use is shown (a
 * stricter reading would hide Export Data, Reports and Import Students; docs/decisions.md D19);
 * `needs` names the policy's action each needs (D49). Each screen lives in the feature that owns
 * its data and is loaded when first opened. Adding a screen is one entry.
 */

const screen = <M,>(load: () => Promise<M>, name: keyof M): Pick<AdminMenuEntry, 'screen' | 'load'> => ({
  screen: lazy(async () => ({ default: (await load())[name] as ComponentType<AdminScreenProps> })),
  load,
});

export const ADMIN_MENU: readonly AdminMenuEntry[] = [
  { id: 'dashboard', label: 'Dashboard', icon: <DashboardIcon />, ...screen(loadDashboardScreen, 'default') },
  { id: 'exportData', needs: 'students.export', label: 'Export Data', icon: <FileDownloadIcon />, ...screen(() => import('../exports/export-data-screen.js'), 'default') },
  { id: 'reports', needs: 'class.read', group: 'reports', label: 'Registration Report', icon: <FactCheckIcon />, ...screen(() => import('../exports/report-screens.js'), 'RegistrationReportScreen') },
  { id: 'parentsContact', needs: 'class.read', group: 'reports', label: 'Parents Contact', icon: <ContactPhoneIcon />, ...screen(() => import('../exports/report-screens.js'), 'ParentsContactScreen') },
  { id: 'classAttendance', needs: 'class.read', group: 'reports', label: 'Class Attendance', icon: <EventAvailableIcon />, ...screen(() => import('../attendance/class-attendance.js'), 'ClassAttendance') },
  { id: 'absenceNotes', needs: 'absence-notes.review', label: 'Absence Notes', icon: <EventBusyIcon />, ...screen(() => import('../absence-notes/absence-notes-queue.js'), 'AbsenceNotesQueueScreen') },
  { id: 'documentReview', needs: 'documents.review', label: 'Document Review', icon: <RateReviewIcon />, ...screen(() => import('../review/review-screen.js'), 'ReviewScreen') },
  { id: 'importStudents', needs: 'students.add', label: 'Import Students', icon: <UploadFileIcon />, ...screen(() => import('../students/import-students-screen.js'), 'default') },
  { id: 'newFormOne', needs: 'intake.manage', label: 'New Form 1', icon: <GroupAddIcon />, ...screen(() => import('../intake/new-form-one-screen.js'), 'NewFormOneScreen') },
  { id: 'postReports', needs: 'term-reports.post', label: 'Post Term Reports', icon: <PostAddIcon />, ...screen(() => import('../term-reports/post-term-reports.js'), 'PostTermReports') },
  { id: 'reportCards', needs: 'class.read', label: 'Report Cards', icon: <PrintIcon />, ...screen(() => import('../term-reports/report-cards-screen.js'), 'ReportCardsScreen') },
  { id: 'importTermResults', needs: 'term-results.import', label: 'Import Term Results', icon: <GradingIcon />, ...screen(() => import('../term-reports/import-term-results.js'), 'ImportTermResults') },
  { id: 'registrationSettings', needs: 'settings.manage', label: 'Registration Settings', icon: <EventNoteIcon />, ...screen(() => import('../registration/registration-settings.js'), 'RegistrationSettings') },
  { id: 'scannerDevices', needs: 'scanners.manage', label: 'Scanner Devices', icon: <QrCodeScannerIcon />, ...screen(() => import('../attendance/scanner-devices.js'), 'ScannerDevices') },
  { id: 'importAttendance', needs: 'attendance.import', label: 'Import Attendance', icon: <DriveFolderUploadIcon />, ...screen(() => import('../attendance/import-attendance.js'), 'ImportAttendance') },
  { id: 'attendanceSettings', needs: 'settings.manage', label: 'Attendance Settings', icon: <EditCalendarIcon />, ...screen(() => import('../attendance/attendance-settings.js'), 'AttendanceSettings') },
  { id: 'newSchoolYear', needs: 'year.rollover', label: 'New School Year', icon: <UpgradeIcon />, ...screen(() => import('../rollover/new-school-year-screen.js'), 'NewSchoolYearScreen') },
  { id: 'staffAccounts', needs: 'staff.manage', label: 'Staff Accounts', icon: <ManageAccountsIcon />, ...screen(() => import('../staff/staff-accounts.js'), 'StaffAccounts') },
  { id: 'familyMessages', needs: 'notices.manage', label: 'Family Messages', icon: <MarkEmailUnreadIcon />, ...screen(() => import('../notices/family-messages-screen.js'), 'FamilyMessagesScreen') },
  { id: 'outbox', needs: 'outbox.manage', label: 'Outbox', icon: <MailOutlineIcon />, ...screen(() => import('../mail/outbox-screen.js'), 'OutboxScreen') },
  { id: 'privacy', needs: 'privacy.manage', label: 'Privacy', icon: <PrivacyTipIcon />, ...screen(() => import('../privacy/privacy.js'), 'Privacy') },
];
