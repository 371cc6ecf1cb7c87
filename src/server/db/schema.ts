import type { Generated, Selectable } from 'kysely';
import type { StaffRole } from '../../shared/staff.js';
import type { STUDENT_FLAG_COLUMNS, STUDENT_TEXT_COLUMNS } from './migrations/0001-initial.js';
import type { YES_NO_COLUMNS } from './migrations/0019-yes-no-answers.js';

/**
 * Table types as the repositories see them. Both engines answer the same JavaScript types:
 * dates are 'yyyy-MM-dd' text, timestamps ISO-8601 text, flags 0/1 numbers (see database.ts).
 */

interface Timestamps {
  created_at: string;
  updated_at: string;
}

export interface HouseTable extends Timestamps {
  id: string;
  name: string;
  color: string;
}
export interface TownTable extends Timestamps {
  id: Generated<number>;
  town_name: string;
}
export interface RegionalCorporationTable extends Timestamps {
  id: Generated<number>;
  title: string;
}
export interface ReligionTable extends Timestamps {
  code: string;
  religion: string;
}
export interface EthnicGroupTable extends Timestamps {
  id: string;
  group_type: string;
}
export interface FormClassTable extends Timestamps {
  id: string;
  form_level: number;
  form_teacher: string | null;
}
export interface PrimarySchoolTable extends Timestamps {
  id: Generated<number>;
  name: string;
  district: string | null;
}

export type StudentTextColumn = (typeof STUDENT_TEXT_COLUMNS)[number];
export type StudentFlagColumn = (typeof STUDENT_FLAG_COLUMNS)[number];
/** The record's yes/no answers: 1 Yes, 0 No, null not answered (0019, D75). */
export type StudentYesNoColumn = (typeof YES_NO_COLUMNS)[number];

export type StudentTable = Timestamps & {
  id: string;
  house_code: string | null;
  class_id: string | null;
  /** A former student (0013, D60): the school day they left at a year rollover, and the class they left from; null while on the roll. */
  left_on: string | null;
  left_class: string | null;
  /** Who agreed to the declaration online (0019, D75): the account, its name and kind then, and when. */
  agreed_by_user_id: number | null;
  agreed_by_name: string | null;
  agreed_by_kind: string | null;
  agreed_at: string | null;
  /** The names as the list's search reads them, accents off, lower case (0022, D82; db/student-search.ts writes it). */
  search_name: string | null;
} & { [K in StudentTextColumn]: string | null } & { [K in Exclude<StudentFlagColumn, StudentYesNoColumn>]: Generated<number> } & {
  [K in StudentYesNoColumn]: number | null;
};

/** The kind of account: a student, a staff member (`staff`, with a `staff_role`), or a family account. */
export type UserRole = 'student' | 'staff' | 'guardian';

export interface UserTable extends Timestamps {
  id: Generated<number>;
  /** `guardian`: a family account, signed in by e-mail (0010, D54). */
  role: UserRole;
  username: string | null;
  student_id: string | null;
  display_name: string | null;
  password_hash: string | null;
  first_login: Generated<number>;
  password_reset: Generated<number>;
  password_changed_at: string | null;
  /** The job of a staff account (`role = 'staff'`); null for students (D49). */
  staff_role: StaffRole | null;
  email: string | null;
  disabled: Generated<number>;
  /** Base32 TOTP secret once enrolment has started; `totp_enabled_at` once a code confirmed it. */
  totp_secret: string | null;
  totp_enabled_at: string | null;
  /** The last TOTP time step a code was accepted for: a code is taken once (migration 0008). */
  totp_last_step: number | string | null;
  /** A family account's e-mail was confirmed by the link mailed to it; it may sign in from then on. */
  email_verified_at: string | null;
  /** A staff member's school e-mail, lower-case: their provider's verified address finds the account (0026, D96). */
  sign_in_email: string | null;
  /** The provider (issuer) and its subject for the account, kept at its first provider sign-in (0026, D96). */
  oidc_issuer: string | null;
  oidc_subject: string | null;
}

/** How a family account came to reach a child: the printed code, a mailed invitation, the office, or the demo school. */
export type GuardianLinkVia = 'code' | 'invitation' | 'office' | 'demo';

export interface GuardianStudentTable extends Timestamps {
  user_id: number;
  student_id: string;
  linked_via: GuardianLinkVia;
}

/** A printed family code: stored as its sha256, taken once, until it expires. */
export interface FamilyCodeTable extends Timestamps {
  id: Generated<number>;
  student_id: string;
  code_hash: string;
  expires_at: string;
  used_at: string | null;
  used_by_user_id: number | null;
  created_by_user_id: number | null;
}

export type FamilyTokenPurpose = 'verify-email' | 'reset-password' | 'invitation';

/** A link mailed to a family: stored as its sha256, taken once, until it expires. */
export interface FamilyTokenTable extends Timestamps {
  id: Generated<number>;
  purpose: FamilyTokenPurpose;
  token_hash: string;
  /** The account it verifies or resets; null for an invitation. */
  user_id: number | null;
  /** The child an invitation adds. */
  student_id: string | null;
  /** Where a verification or an invitation was sent. */
  email: string | null;
  /** A registration waiting for its address to be verified: the name the account will have (its password is chosen when the link is opened, D66). */
  name: string | null;
  expires_at: string;
  used_at: string | null;
  created_by_user_id: number | null;
}

export interface StaffClassTable {
  user_id: number;
  class_id: string;
}

export interface StaffRecoveryCodeTable {
  id: Generated<number>;
  user_id: number;
  code_hash: string;
  used_at: string | null;
  created_at: string;
}

export interface RegistrationPeriodTable extends Timestamps {
  id: Generated<number>;
  /** null = the default for every form level without its own row. */
  form_level: number | null;
  open: number;
  deadline: string | null;
}

export interface RegistrationProgressTable extends Timestamps {
  student_id: string;
  student_data: number;
  family_data: number;
  health_data: number;
  other_data: number;
  documents: number;
  submit: number;
  terms_and_conditions: number;
}

export interface DocumentTable extends Timestamps {
  id: Generated<number>;
  /** Random, unguessable id used in the document's URL. */
  public_id: string;
  student_id: string;
  file_type: string;
  file_name: string;
  mime: string;
  size: number;
  sha256: string;
  bytes: Buffer;
  /** The office's review (D56): every upload starts submitted. */
  review_state: Generated<DocumentReviewState>;
  /** The reason the family reads when returned. */
  review_reason: string | null;
  reviewed_by: number | null;
  reviewed_at: string | null;
  /** A photo's thumbnail (JPEG), made the first time it is asked for (D74); null until then and for PDFs. */
  thumbnail: Buffer | null;
}

export type DocumentReviewState = 'submitted' | 'accepted' | 'returned';

/** A family's or a student's explanation of an absence (migration 0025, docs/decisions.md D93). */
export interface AbsenceNoteTable extends Timestamps {
  id: Generated<number>;
  student_id: string;
  sender: 'family' | 'student';
  /** The family account or the student's own account that sent it; null once that account is gone. */
  sent_by_user_id: number | null;
  date_from: string;
  date_to: string;
  part: 'whole_day' | 'am' | 'pm' | 'late';
  reason: string;
  text: Generated<string>;
  state: Generated<'waiting' | 'accepted' | 'declined' | 'withdrawn'>;
  decision_reason: string | null;
  decision_text: string | null;
  decided_by_user_id: number | null;
  decided_at: string | null;
  withdrawn_at: string | null;
}

/** A note's attachment (a doctor's note), its bytes stored as a document's are. */
export interface AbsenceNoteAttachmentTable extends Timestamps {
  note_id: number;
  file_name: string;
  mime: string;
  size: number;
  sha256: string;
  bytes: Buffer;
}

/** A document slot the office received on paper (migration 0023, docs/decisions.md D83). */
export interface PaperDocumentTable extends Timestamps {
  student_id: string;
  file_type: string;
  received_by_user_id: number | null;
  received_at: string;
}

/** The office's decision on a registration record, when there is one (D56). */
export interface RegistrationReviewTable extends Timestamps {
  student_id: string;
  state: 'returned' | 'verified';
  note: string | null;
  /** JSON array of the steps to fix. */
  steps: string;
  reviewed_by: number | null;
  reviewed_at: string;
}

export interface AcademicTermTable extends Timestamps {
  id: Generated<number>;
  year: number;
  term: number;
  start_date: string;
  end_date: string;
}
export interface SchoolHolidayTable extends Timestamps {
  id: Generated<number>;
  date: string;
  name: string;
}
export interface TermReportTable extends Timestamps {
  id: Generated<number>;
  year: number;
  term: number;
  posted: number;
  date_posted: string | null;
  scheduled_at: string | null;
}
export interface SubjectTable extends Timestamps {
  id: Generated<number>;
  code: string;
  name: string;
}
export interface GradeKeyTable extends Timestamps {
  id: Generated<number>;
  grade: string;
  min_total: number;
  description: string | null;
}
export interface AssessmentWeightTable extends Timestamps {
  form_level: number;
  coursework_weight: number;
  exam_weight: number;
}
export interface TermResultTable extends Timestamps {
  id: Generated<number>;
  student_id: string;
  year: number;
  term: number;
  subject_id: number;
  coursework: number | null;
  exam: number | null;
  total: number | null;
  grade: string | null;
  comment: string | null;
}
export interface TermSummaryTable extends Timestamps {
  id: Generated<number>;
  student_id: string;
  year: number;
  term: number;
  class_id: string | null;
  form_teacher_remarks: string | null;
  principal_remarks: string | null;
  average: number | null;
  position: number | null;
  class_size: number | null;
}
export interface AttendanceRecordTable extends Timestamps {
  id: Generated<number>;
  student_id: string;
  date_scanned: string;
  attendance_am: number;
  attendance_pm: number;
  time_in: string | null;
  time_out: string | null;
  late: number;
  time_scanned_in: string | null;
  time_scanned_out: string | null;
}
export interface ScannerDeviceTable extends Timestamps {
  id: Generated<number>;
  name: string;
  key_hash: string;
  revoked_at: string | null;
  last_seen_at: string | null;
}
export interface AttendanceScanTable extends Timestamps {
  id: Generated<number>;
  student_id: string;
  scanned_date: string;
  scanned_time: string;
  source: string;
}
export interface SessionTable {
  /** sha256 of the cookie's random id: a leaked table cannot be replayed as cookies. */
  id_hash: string;
  user_id: number;
  created_at: string;
  updated_at: string;
  expires_at: string;
  last_seen_at: string;
  ip: string | null;
  user_agent: string | null;
  /** 1: "Keep me signed in on this device" was ticked, the cookie lasts the session's lifetime (D71); 0: it ends with the browser. */
  remember: Generated<number>;
  /** 1: the second factor is required for this account and not set up yet; the session reaches only its enrolment (0008). */
  second_factor_setup: Generated<number>;
}
export interface RateLimitTable {
  key: string;
  window_start_ms: number;
  hits: number;
  /** The earliest time (ms) the key's next attempt is checked; 0 = no delay (docs/decisions.md D37). */
  blocked_until_ms: Generated<number>;
  created_at: string;
  updated_at: string;
}
export interface SettingTable extends Timestamps {
  key: string;
  value: string;
}
export interface AuditLogTable extends Timestamps {
  id: Generated<number>;
  actor_user_id: number | null;
  actor_label: string;
  action: string;
  entity: string;
  entity_id: string | null;
  field: string | null;
  old_value: string | null;
  new_value: string | null;
  ip: string | null;
  request_id: string | null;
}

/** Where a message is: waiting (or waiting to be tried again), held by a sender, delivered, given up. */
export type OutboxState = 'queued' | 'sending' | 'sent' | 'failed';

/** One message to send (migration 0009, docs/decisions.md D53). */
export interface OutboxTable extends Timestamps {
  id: Generated<number>;
  to_address: string;
  /** A name of MAIL_TEMPLATES (server/mail/templates); rendered with `data` when sent. */
  template: string;
  /** The template's data as JSON. */
  data: string;
  /** The left part of the Message-ID, the same on every try. */
  message_key: string;
  state: Generated<OutboxState>;
  tries: Generated<number>;
  /** Queued: when the next try is due. Sending: when the sender's lease ends. */
  next_attempt_at: string;
  /** The claim of the sender holding the row; only that claim may finish it. */
  claim_token: string | null;
  last_error: string | null;
  sent_at: string | null;
}

/** A message sent to a family, as its notices list shows it (migration 0012, docs/decisions.md D57). */
export interface NoticeTable extends Timestamps {
  id: Generated<number>;
  /** `user:<id>` for a family account, `email:<address>` for a verified parent e-mail. */
  recipient_key: string;
  user_id: number | null;
  email: string;
  /** A NoticeKind (src/shared/notices.schemas.ts). */
  kind: string;
  /** The template's data as JSON. */
  data: string;
  /** Unique when set: one digest a day, one reminder a week per recipient. */
  notice_key: string | null;
  outbox_id: number | null;
  read_at: string | null;
}
export interface NoticeStudentTable {
  notice_id: number;
  student_id: string;
}
export interface NoticePreferenceTable extends Timestamps {
  recipient_key: string;
  kind: 'attendance-digest' | 'deadline-reminder';
  enabled: number;
}
export type ParentEmailField = 'mother' | 'father' | 'guardian';
export interface ParentEmailVerificationTable extends Timestamps {
  student_id: string;
  parent: ParentEmailField;
  /** The address the mark was given for (lower-case); the mark counts only while the record still holds it. */
  email: string;
  verified_by_user_id: number | null;
}

/** One year rollover (migration 0013, docs/decisions.md D60) with the before-state its undo restores. */
export interface YearRolloverTable extends Timestamps {
  id: Generated<number>;
  from_year: number;
  to_year: number;
  /** The school's day of the run (yyyy-MM-dd): the undo is taken that day only. */
  run_on: string;
  run_by_user_id: number | null;
  /** JSON: step name → that step's before-state. */
  before_state: string;
  /** JSON: the run's counts (RolloverSummary). */
  summary: string;
  undone_at: string | null;
  undone_by_user_id: number | null;
}

/** One dated entry or exit of a student's enrolment history (migration 0021, D80). */
export interface EnrolmentEventTable extends Timestamps {
  id: Generated<number>;
  student_id: string;
  kind: 'entry' | 'exit';
  /** The school day (yyyy-MM-dd). */
  happened_on: string;
  /** An entry's reason (form1_intake, transfer_in, readmitted, enrolled) or an exit's (graduated, transferred, emigrated, withdrawn, other). */
  reason: string;
  /** The class joined or left; null when not recorded. */
  class_id: string | null;
  /** The school a transfer goes to. */
  other_school: string | null;
  note: string | null;
  recorded_by_user_id: number | null;
}

/** A finalise of the new Form 1 (migration 0020, D79): undone the same school day only. */
export interface IntakeFinaliseTable extends Timestamps {
  id: Generated<number>;
  /** The school's day of the finalise (yyyy-MM-dd). */
  finalised_on: string;
  file_name: string;
  /** JSON: the students created, `[{ id, row }]`, in the order their IDs were given. */
  students: string;
  finalised_by_user_id: number | null;
  undone_at: string | null;
  undone_by_user_id: number | null;
}

/** A child of the imported SEA placement list, before finalising makes them a student (migration 0014, D61). */
export interface IntakeStudentTable extends Timestamps {
  id: Generated<number>;
  /** The row of the placement list it came from. */
  row_number: number;
  file_name: string;
  sea_no: string;
  first_name: string;
  middle_name: string | null;
  last_name: string;
  date_of_birth: string;
  sex: 'Female' | 'Male';
  /** A name of the primary_schools lookup. */
  primary_school: string;
  /** The Form 1 class chosen; null until the allocation gives one. */
  class_id: string | null;
}

/** An academic year whose re-registration was opened (D62). */
export interface ReRegistrationTable extends Timestamps {
  year: number;
  opened_by: number | null;
  opened_at: string;
}

export type ReRegistrationStepKey = 'student' | 'family' | 'health' | 'other' | 'documents';

/** A returning student's step to confirm in a year's re-registration; pending while `confirmed_at` is null. */
export interface ReRegistrationStepTable extends Timestamps {
  year: number;
  student_id: string;
  step: ReRegistrationStepKey;
  confirmed_at: string | null;
  confirmed_by: number | null;
  confirmed_by_label: string | null;
  how: 'unchanged' | 'changed' | null;
}

export interface Database {
  houses: HouseTable;
  towns: TownTable;
  regional_corporations: RegionalCorporationTable;
  religions: ReligionTable;
  ethnic_groups: EthnicGroupTable;
  form_classes: FormClassTable;
  primary_schools: PrimarySchoolTable;
  students: StudentTable;
  intake_students: IntakeStudentTable;
  intake_finalises: IntakeFinaliseTable;
  users: UserTable;
  staff_classes: StaffClassTable;
  staff_recovery_codes: StaffRecoveryCodeTable;
  guardian_students: GuardianStudentTable;
  family_codes: FamilyCodeTable;
  family_tokens: FamilyTokenTable;
  registration_periods: RegistrationPeriodTable;
  registration_progress: RegistrationProgressTable;
  documents: DocumentTable;
  registration_reviews: RegistrationReviewTable;
  academic_terms: AcademicTermTable;
  school_holidays: SchoolHolidayTable;
  term_reports: TermReportTable;
  subjects: SubjectTable;
  grade_keys: GradeKeyTable;
  assessment_weights: AssessmentWeightTable;
  term_results: TermResultTable;
  term_summaries: TermSummaryTable;
  attendance_records: AttendanceRecordTable;
  scanner_devices: ScannerDeviceTable;
  attendance_scans: AttendanceScanTable;
  sessions: SessionTable;
  rate_limits: RateLimitTable;
  settings: SettingTable;
  audit_log: AuditLogTable;
  outbox: OutboxTable;
  notices: NoticeTable;
  notice_students: NoticeStudentTable;
  notice_preferences: NoticePreferenceTable;
  parent_email_verifications: ParentEmailVerificationTable;
  paper_documents: PaperDocumentTable;
  absence_notes: AbsenceNoteTable;
  absence_note_attachments: AbsenceNoteAttachmentTable;
  year_rollovers: YearRolloverTable;
  enrolment_events: EnrolmentEventTable;
  re_registrations: ReRegistrationTable;
  re_registration_steps: ReRegistrationStepTable;
}

export type StudentRow = Selectable<StudentTable>;
