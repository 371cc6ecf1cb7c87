import { sql, type Kysely, type CreateTableBuilder, PostgresAdapter } from 'kysely';

/**
 * The whole first data model in one migration, so later features add behaviour, not
 * schema churn. Dialect-neutral: text dates (yyyy-MM-dd) and ISO timestamps, 0/1 integers for
 * the record's flags; only the id and byte columns differ between SQLite and PostgreSQL.
 */

// Migrations are frozen in time: they must not depend on today's table types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

function isPostgres(db: Db): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

function withId<T extends string>(db: Db, table: CreateTableBuilder<T, never>) {
  return isPostgres(db)
    ? table.addColumn('id', 'serial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

function withTimestamps<T extends string, C extends string>(table: CreateTableBuilder<T, C>) {
  return table
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull());
}

/** Text columns of the registration record (docs/requirements.md R4); flags and numbers are listed apart. */
export const STUDENT_TEXT_COLUMNS = [
  'first_name',
  'last_name',
  'middle_name',
  'sex',
  'home_address',
  'address_line_2',
  'regional_corporation',
  'phone_home',
  'email',
  'blood_type',
  'previous_school',
  'sea_no',
  'religion_code',
  'ethnic_group_code',
  'birth_certificate_no',
  'date_of_birth',
  'place_of_birth',
  'nationality',
  'permit_issue_date',
  'permit_expiry_date',
  'agree_terms_date',
  'living_status',
  'mother_name',
  'mother_marital_status',
  'mother_home_address',
  'mother_occupation',
  'mother_business_place',
  'mother_business_address',
  'mother_home_phone',
  'mother_business_phone',
  'mobile_phone_mother',
  'email_mother',
  'id_card_mother',
  'father_name',
  'father_marital_status',
  'father_home_address',
  'father_occupation',
  'father_business_place',
  'father_business_address',
  'father_home_phone',
  'father_business_phone',
  'mobile_phone_father',
  'email_father',
  'id_card_father',
  'guardian_name',
  'guardian_marital_status',
  'home_address_guardian',
  'guardian_occupation',
  'guardian_business_place',
  'guardian_business_address',
  'home_phone_guardian',
  'business_phone_guardian',
  'mobile_phone_guardian',
  'email_guardian',
  'id_card_guardian',
  'no_in_family',
  'no_at_home',
  'place_in_family',
  'emergency_contact',
  'emergency_home_phone',
  'relative_in_school',
  'relation_to_child',
  'medical_history',
  'other_illness',
  'allergy',
  'special_consideration',
  'achievements',
  'device_type',
  'transport',
  'sibling_class',
  'parent_attended_year',
] as const;

/** 0/1 columns of the registration record (R4). */
export const STUDENT_FLAG_COLUMNS = [
  'immigration_permit',
  'terms_and_conditions',
  'agree_terms_conditions',
  'hepatitis',
  'polio',
  'diphtheria',
  'tetanus',
  'yellow_fever',
  'measles',
  'tb',
  'chicken_pox',
  'typhoid',
  'rheumatic_fever',
  'poor_eyesight',
  'poor_hearing',
  'diabetes',
  'asthma',
  'epilepsy',
  'internet_access',
  'school_feeding',
  'sibling_attending',
  'parent_attended',
] as const;

export async function up(db: Db): Promise<void> {
  const pg = isPostgres(db);
  const bytesType = pg ? 'bytea' : 'blob';
  const bigint = pg ? 'bigint' : 'integer';

  // Lookups (R4).
  await withTimestamps(
    db.schema
      .createTable('houses')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('color', 'text', (c) => c.notNull()),
  ).execute();
  await withTimestamps(
    withId(db, db.schema.createTable('towns')).addColumn('town_name', 'text', (c) => c.notNull().unique()),
  ).execute();
  await withTimestamps(
    withId(db, db.schema.createTable('regional_corporations')).addColumn('title', 'text', (c) =>
      c.notNull().unique(),
    ),
  ).execute();
  await withTimestamps(
    db.schema
      .createTable('religions')
      .addColumn('code', 'text', (c) => c.primaryKey())
      .addColumn('religion', 'text', (c) => c.notNull()),
  ).execute();
  await withTimestamps(
    db.schema
      .createTable('ethnic_groups')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('group_type', 'text', (c) => c.notNull()),
  ).execute();
  await withTimestamps(
    db.schema
      .createTable('form_classes')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('form_level', 'integer', (c) => c.notNull())
      .addColumn('form_teacher', 'text'),
  ).execute();
  await withTimestamps(
    withId(db, db.schema.createTable('primary_schools'))
      .addColumn('name', 'text', (c) => c.notNull().unique())
      .addColumn('district', 'text'),
  ).execute();

  // The registration record: one column per field (R4).
  let students = db.schema
    .createTable('students')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('house_code', 'text', (c) => c.references('houses.id'))
    .addColumn('class_id', 'text', (c) => c.references('form_classes.id'));
  for (const column of STUDENT_TEXT_COLUMNS) students = students.addColumn(column, 'text');
  for (const column of STUDENT_FLAG_COLUMNS)
    students = students.addColumn(column, 'integer', (c) => c.notNull().defaultTo(0));
  await withTimestamps(students).execute();
  await db.schema.createIndex('students_class_idx').on('students').column('class_id').execute();
  await db.schema.createIndex('students_updated_idx').on('students').column('updated_at').execute();
  await db.schema.createIndex('students_birth_pin_idx').on('students').column('birth_certificate_no').execute();
  await db.schema.createIndex('students_sea_idx').on('students').column('sea_no').execute();
  await db.schema
    .createIndex('students_name_idx')
    .on('students')
    .columns(['last_name', 'first_name'])
    .execute();

  await withTimestamps(
    withId(db, db.schema.createTable('users'))
      .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('student', 'admin')`))
      .addColumn('username', 'text', (c) => c.unique())
      .addColumn('student_id', 'text', (c) => c.unique().references('students.id').onDelete('cascade'))
      .addColumn('display_name', 'text')
      .addColumn('password_hash', 'text')
      .addColumn('first_login', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('password_reset', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('failed_attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('locked_until', 'text')
      .addColumn('password_changed_at', 'text'),
  ).execute();

  await withTimestamps(
    withId(db, db.schema.createTable('registration_periods'))
      .addColumn('form_level', 'integer', (c) => c.unique())
      .addColumn('open', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('deadline', 'text'),
  ).execute();

  await withTimestamps(
    db.schema
      .createTable('registration_progress')
      .addColumn('student_id', 'text', (c) => c.primaryKey().references('students.id').onDelete('cascade'))
      .addColumn('student_data', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('family_data', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('health_data', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('other_data', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('documents', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('submit', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('terms_and_conditions', 'integer', (c) => c.notNull().defaultTo(0)),
  ).execute();

  await withTimestamps(
    withId(db, db.schema.createTable('documents'))
      .addColumn('public_id', 'text', (c) => c.notNull().unique())
      .addColumn('student_id', 'text', (c) => c.notNull().references('students.id').onDelete('cascade'))
      .addColumn('file_type', 'text', (c) => c.notNull())
      .addColumn('file_name', 'text', (c) => c.notNull())
      .addColumn('mime', 'text', (c) => c.notNull())
      .addColumn('size', 'integer', (c) => c.notNull())
      .addColumn('sha256', 'text', (c) => c.notNull())
      .addColumn('bytes', bytesType, (c) => c.notNull())
      .addUniqueConstraint('documents_student_type_uq', ['student_id', 'file_type']),
  ).execute();

  await withTimestamps(
    withId(db, db.schema.createTable('academic_terms'))
      .addColumn('year', 'integer', (c) => c.notNull())
      .addColumn('term', 'integer', (c) => c.notNull().check(sql`term in (1, 2, 3)`))
      .addColumn('start_date', 'text', (c) => c.notNull())
      .addColumn('end_date', 'text', (c) => c.notNull())
      .addUniqueConstraint('academic_terms_year_term_uq', ['year', 'term']),
  ).execute();

  await withTimestamps(
    withId(db, db.schema.createTable('school_holidays'))
      .addColumn('date', 'text', (c) => c.notNull().unique())
      .addColumn('name', 'text', (c) => c.notNull()),
  ).execute();

  await withTimestamps(
    withId(db, db.schema.createTable('term_reports'))
      .addColumn('year', 'integer', (c) => c.notNull())
      .addColumn('term', 'integer', (c) => c.notNull().check(sql`term in (1, 2, 3)`))
      .addColumn('posted', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('date_posted', 'text')
      .addColumn('scheduled_at', 'text')
      .addUniqueConstraint('term_reports_year_term_uq', ['year', 'term']),
  ).execute();

  await withTimestamps(
    withId(db, db.schema.createTable('subjects'))
      .addColumn('code', 'text', (c) => c.notNull().unique())
      .addColumn('name', 'text', (c) => c.notNull()),
  ).execute();

  await withTimestamps(
    withId(db, db.schema.createTable('grade_keys'))
      .addColumn('grade', 'text', (c) => c.notNull().unique())
      .addColumn('min_total', 'real', (c) => c.notNull())
      .addColumn('description', 'text'),
  ).execute();

  await withTimestamps(
    db.schema
      .createTable('assessment_weights')
      .addColumn('form_level', 'integer', (c) => c.primaryKey())
      .addColumn('coursework_weight', 'real', (c) => c.notNull())
      .addColumn('exam_weight', 'real', (c) => c.notNull()),
  ).execute();

  await withTimestamps(
    withId(db, db.schema.createTable('term_results'))
      .addColumn('student_id', 'text', (c) => c.notNull().references('students.id').onDelete('cascade'))
      .addColumn('year', 'integer', (c) => c.notNull())
      .addColumn('term', 'integer', (c) => c.notNull())
      .addColumn('subject_id', 'integer', (c) => c.notNull().references('subjects.id'))
      .addColumn('coursework', 'real')
      .addColumn('exam', 'real')
      .addColumn('total', 'real')
      .addColumn('grade', 'text')
      .addColumn('comment', 'text')
      .addUniqueConstraint('term_results_uq', ['student_id', 'year', 'term', 'subject_id']),
  ).execute();
  await db.schema.createIndex('term_results_term_idx').on('term_results').columns(['year', 'term']).execute();

  await withTimestamps(
    withId(db, db.schema.createTable('term_summaries'))
      .addColumn('student_id', 'text', (c) => c.notNull().references('students.id').onDelete('cascade'))
      .addColumn('year', 'integer', (c) => c.notNull())
      .addColumn('term', 'integer', (c) => c.notNull())
      .addColumn('class_id', 'text', (c) => c.references('form_classes.id'))
      .addColumn('form_teacher_remarks', 'text')
      .addColumn('principal_remarks', 'text')
      .addColumn('average', 'real')
      .addColumn('position', 'integer')
      .addColumn('class_size', 'integer')
      .addUniqueConstraint('term_summaries_uq', ['student_id', 'year', 'term']),
  ).execute();

  await withTimestamps(
    withId(db, db.schema.createTable('attendance_records'))
      .addColumn('student_id', 'text', (c) => c.notNull().references('students.id').onDelete('cascade'))
      .addColumn('date_scanned', 'text', (c) => c.notNull())
      .addColumn('attendance_am', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('attendance_pm', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('time_in', 'text')
      .addColumn('time_out', 'text')
      .addColumn('late', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('time_scanned_in', 'text')
      .addColumn('time_scanned_out', 'text')
      .addUniqueConstraint('attendance_student_date_uq', ['student_id', 'date_scanned']),
  ).execute();
  await db.schema.createIndex('attendance_date_idx').on('attendance_records').column('date_scanned').execute();

  await withTimestamps(
    withId(db, db.schema.createTable('scanner_devices'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('key_hash', 'text', (c) => c.notNull().unique())
      .addColumn('revoked_at', 'text')
      .addColumn('last_seen_at', 'text'),
  ).execute();

  await withTimestamps(
    withId(db, db.schema.createTable('attendance_scans'))
      .addColumn('student_id', 'text', (c) => c.notNull().references('students.id').onDelete('cascade'))
      .addColumn('scanned_date', 'text', (c) => c.notNull())
      .addColumn('scanned_time', 'text', (c) => c.notNull())
      .addColumn('source', 'text', (c) => c.notNull())
      .addUniqueConstraint('attendance_scans_uq', ['student_id', 'scanned_date', 'scanned_time']),
  ).execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .execute();
  await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('window_start_ms', bigint, (c) => c.notNull())
    .addColumn('hits', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await withTimestamps(
    db.schema
      .createTable('settings')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull()),
  ).execute();

  await withTimestamps(
    withId(db, db.schema.createTable('audit_log'))
      .addColumn('actor_user_id', 'integer')
      .addColumn('actor_label', 'text', (c) => c.notNull())
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('entity', 'text', (c) => c.notNull())
      .addColumn('entity_id', 'text')
      .addColumn('field', 'text')
      .addColumn('old_value', 'text')
      .addColumn('new_value', 'text')
      .addColumn('ip', 'text')
      .addColumn('request_id', 'text'),
  ).execute();
  await db.schema.createIndex('audit_entity_idx').on('audit_log').columns(['entity', 'entity_id']).execute();
}

const TABLES_NEWEST_FIRST = [
  'audit_log',
  'settings',
  'rate_limits',
  'sessions',
  'attendance_scans',
  'scanner_devices',
  'attendance_records',
  'term_summaries',
  'term_results',
  'assessment_weights',
  'grade_keys',
  'subjects',
  'term_reports',
  'school_holidays',
  'academic_terms',
  'documents',
  'registration_progress',
  'registration_periods',
  'users',
  'students',
  'primary_schools',
  'form_classes',
  'ethnic_groups',
  'religions',
  'regional_corporations',
  'towns',
  'houses',
];

export async function down(db: Db): Promise<void> {
  for (const table of TABLES_NEWEST_FIRST) await db.schema.dropTable(table).ifExists().execute();
}
