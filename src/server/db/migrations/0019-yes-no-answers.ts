import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../engine.js';

/**
 * Yes/no answers of the registration record and who agreed to the declaration (docs/decisions.md D75).
 * - The record's yes/no columns (immunisations, conditions, permit, internet, feeding, sibling,
 *   parent attended) may hold null: not answered. A stored 0 was the untouched default unless
 *   something shows a person chose No: an audit row of the field saved as '0', or the office's
 *   import that created the record with it (its audit row holds the values as JSON). Those stay
 *   No; every other 0 becomes not answered. 1 stays Yes. The terms' own marks stay 0/1.
 * - `agreed_by_user_id`, `agreed_by_name`, `agreed_by_kind`, `agreed_at`: the account that agreed
 *   to the declaration, its name and kind as they were then, and the moment. No foreign key: the
 *   name stays on the record whatever becomes of the account, as the audit log keeps its label.
 * Down: not answered becomes 0 again (the columns are NOT NULL DEFAULT 0), the agreement columns go.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the schema type applies
type Db = Kysely<any>;

/** The record's yes/no columns (the catalogue's `yesno` fields, listed as they were at 0019). */
export const YES_NO_COLUMNS = [
  'immigration_permit',
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

const AGREEMENT_COLUMNS = [
  ['agreed_by_user_id', 'integer'],
  ['agreed_by_name', 'text'],
  ['agreed_by_kind', 'text'],
  ['agreed_at', 'text'],
] as const;

/**
 * SQLite cannot drop NOT NULL from a column: a new column takes its values, the old one goes and
 * the new one takes its name (the column moves to the table's end; nothing reads columns by position).
 */
async function replaceColumn(db: Db, column: string, nullable: boolean): Promise<void> {
  const temporary = `${column}__new`;
  await db.schema
    .alterTable('students')
    .addColumn(temporary, 'integer', (c) => (nullable ? c : c.notNull().defaultTo(0)))
    .execute();
  await db.updateTable('students').set({ [temporary]: nullable ? sql.ref(column) : sql`coalesce(${sql.ref(column)}, 0)` }).execute();
  await db.schema.alterTable('students').dropColumn(column).execute();
  await db.schema.alterTable('students').renameColumn(temporary, column).execute();
}

export async function up(db: Db): Promise<void> {
  for (const column of YES_NO_COLUMNS) {
    if (isPostgres(db)) {
      await db.schema.alterTable('students').alterColumn(column, (c) => c.dropNotNull()).execute();
      await db.schema.alterTable('students').alterColumn(column, (c) => c.dropDefault()).execute();
    } else {
      await replaceColumn(db, column, true);
    }
    // A 0 nobody is shown to have chosen was the untouched default: not answered.
    await db
      .updateTable('students')
      .set({ [column]: null })
      .where(column, '=', 0)
      .where((outer) =>
        outer.not(
          outer.exists(
            outer
              .selectFrom('audit_log')
              .select(sql`1`.as('one'))
              .where('audit_log.entity', '=', 'student')
              .whereRef('audit_log.entity_id', '=', 'students.id')
              .where((eb) =>
                eb.or([
                  eb.and([eb('audit_log.field', '=', column), eb('audit_log.new_value', '=', '0')]),
                  eb.and([eb('audit_log.action', '=', 'create'), eb('audit_log.field', 'is', null), eb('audit_log.new_value', 'like', `%"${column}":0%`)]),
                ]),
              ),
          ),
        ),
      )
      .execute();
  }
  for (const [column, type] of AGREEMENT_COLUMNS) await db.schema.alterTable('students').addColumn(column, type).execute();
}

export async function down(db: Db): Promise<void> {
  for (const [column] of AGREEMENT_COLUMNS) await db.schema.alterTable('students').dropColumn(column).execute();
  for (const column of YES_NO_COLUMNS) {
    if (isPostgres(db)) {
      await db.updateTable('students').set({ [column]: 0 }).where(column, 'is', null).execute();
      await db.schema.alterTable('students').alterColumn(column, (c) => c.setDefault(0)).execute();
      await db.schema.alterTable('students').alterColumn(column, (c) => c.setNotNull()).execute();
    } else {
      await replaceColumn(db, column, false);
    }
  }
}
