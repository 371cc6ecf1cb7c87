import type { Kysely } from 'kysely';
import { nowIso } from './database.js';
import type { Database } from './schema.js';

/**
 * The lookups (docs/requirements.md R4) with Trinidad and Tobago's real values. A real school needs
 * these as much as the demo does, so they are reference data, not demo data. Form classes are
 * not here: each school defines its own.
 */

/** The 14 municipal corporations of Trinidad (Municipal Corporations Act) plus Tobago's assembly. */
export const REGIONAL_CORPORATIONS = [
  'Port of Spain City Corporation',
  'San Fernando City Corporation',
  'Arima Borough Corporation',
  'Chaguanas Borough Corporation',
  'Point Fortin Borough Corporation',
  'Diego Martin Regional Corporation',
  'San Juan-Laventille Regional Corporation',
  'Tunapuna-Piarco Regional Corporation',
  'Sangre Grande Regional Corporation',
  'Couva-Tabaquite-Talparo Regional Corporation',
  'Mayaro-Rio Claro Regional Corporation',
  'Princes Town Regional Corporation',
  'Penal-Debe Regional Corporation',
  'Siparia Regional Corporation',
  'Tobago House of Assembly',
] as const;
export type RegionalCorporation = (typeof REGIONAL_CORPORATIONS)[number];

export const TOBAGO_HOUSE_OF_ASSEMBLY: RegionalCorporation = 'Tobago House of Assembly';

/**
 * Towns (the registration form's "Town", `address_line_2`) with the corporation that governs
 * them, so an address can be filled consistently. Only the name goes into the `towns` table.
 */
export const TOWNS: readonly { name: string; corporation: RegionalCorporation }[] = [
  ...townsOf('Port of Spain City Corporation', ['Port of Spain', 'Belmont', 'Woodbrook', 'St. James', 'Newtown']),
  ...townsOf('Diego Martin Regional Corporation', [
    'Diego Martin',
    'Petit Valley',
    'Carenage',
    'Chaguaramas',
    'Glencoe',
    'Westmoorings',
  ]),
  ...townsOf('San Juan-Laventille Regional Corporation', [
    'San Juan',
    'Laventille',
    'Barataria',
    'Morvant',
    'Santa Cruz',
    'Aranguez',
    'El Socorro',
  ]),
  ...townsOf('Tunapuna-Piarco Regional Corporation', [
    'Tunapuna',
    'St. Augustine',
    'Curepe',
    'St. Joseph',
    'Piarco',
    'Arouca',
    'Trincity',
    'Tacarigua',
    "D'Abadie",
    'Maloney',
    'El Dorado',
  ]),
  ...townsOf('Arima Borough Corporation', ['Arima', 'Malabar']),
  ...townsOf('Sangre Grande Regional Corporation', [
    'Sangre Grande',
    'Valencia',
    'Toco',
    'Matura',
    'Manzanilla',
    'Cumuto',
  ]),
  ...townsOf('Chaguanas Borough Corporation', ['Chaguanas', 'Felicity', 'Enterprise', 'Endeavour', 'Edinburgh']),
  ...townsOf('Couva-Tabaquite-Talparo Regional Corporation', [
    'Couva',
    'California',
    'Claxton Bay',
    'Freeport',
    'Carapichaima',
    'Preysal',
    'Gasparillo',
    'Tabaquite',
    'Talparo',
  ]),
  ...townsOf('San Fernando City Corporation', ['San Fernando', 'Marabella', 'Vistabella', 'Pleasantville']),
  ...townsOf('Princes Town Regional Corporation', [
    'Princes Town',
    'Moruga',
    'Tableland',
    'New Grant',
    'Ste. Madeleine',
  ]),
  ...townsOf('Penal-Debe Regional Corporation', ['Penal', 'Debe', 'Barrackpore']),
  ...townsOf('Siparia Regional Corporation', ['Siparia', 'Fyzabad', 'La Brea', 'Erin', 'Cedros', 'Santa Flora']),
  ...townsOf('Point Fortin Borough Corporation', ['Point Fortin']),
  ...townsOf('Mayaro-Rio Claro Regional Corporation', ['Mayaro', 'Rio Claro', 'Guayaguayare', 'Biche']),
  ...townsOf('Tobago House of Assembly', [
    'Scarborough',
    'Plymouth',
    'Roxborough',
    'Crown Point',
    'Canaan',
    'Bon Accord',
    'Speyside',
    'Charlotteville',
    'Black Rock',
    'Moriah',
    'Mason Hall',
  ]),
];

function townsOf(corporation: RegionalCorporation, names: string[]) {
  return names.map((name) => ({ name, corporation }));
}

/** Religions as the census groups them; codes are what the student record stores. */
export const RELIGIONS: readonly { code: string; religion: string }[] = [
  { code: 'RC', religion: 'Roman Catholic' },
  { code: 'ANG', religion: 'Anglican' },
  { code: 'HIN', religion: 'Hindu' },
  { code: 'MUS', religion: 'Muslim' },
  { code: 'PRE', religion: 'Presbyterian' },
  { code: 'PEN', religion: 'Pentecostal' },
  { code: 'EVA', religion: 'Evangelical' },
  { code: 'SDA', religion: 'Seventh-day Adventist' },
  { code: 'BAP', religion: 'Baptist' },
  { code: 'SPB', religion: 'Spiritual Baptist' },
  { code: 'MET', religion: 'Methodist' },
  { code: 'MOR', religion: 'Moravian' },
  { code: 'ORI', religion: 'Orisha' },
  { code: 'JW', religion: "Jehovah's Witness" },
  { code: 'RAS', religion: 'Rastafarian' },
  { code: 'NONE', religion: 'None' },
  { code: 'OTH', religion: 'Other' },
];

/** Ethnic groups as the Trinidad and Tobago census asks them. */
export const ETHNIC_GROUPS: readonly { id: string; group_type: string }[] = [
  { id: 'AFR', group_type: 'African' },
  { id: 'EIN', group_type: 'East Indian' },
  { id: 'MAE', group_type: 'Mixed - African/East Indian' },
  { id: 'MOT', group_type: 'Mixed - Other' },
  { id: 'CHI', group_type: 'Chinese' },
  { id: 'SYL', group_type: 'Syrian/Lebanese' },
  { id: 'EUR', group_type: 'European' },
  { id: 'POR', group_type: 'Portuguese' },
  { id: 'IND', group_type: 'Indigenous' },
  { id: 'OTH', group_type: 'Other' },
];

/** Houses named after the national birds and two island birds, in the usual four sports colours. */
export const HOUSES: readonly { id: string; name: string; color: string }[] = [
  { id: 'IBS', name: 'Ibis', color: '#C8102E' },
  { id: 'MOT', name: 'Motmot', color: '#1565C0' },
  { id: 'HUM', name: 'Hummingbird', color: '#2E7D32' },
  { id: 'KIS', name: 'Kiskadee', color: '#F9A825' },
];

/** The Ministry of Education's eight school districts. */
type EducationDistrict =
  | 'Port of Spain and Environs'
  | 'St George East'
  | 'North Eastern'
  | 'Caroni'
  | 'Victoria'
  | 'St Patrick'
  | 'South Eastern'
  | 'Tobago';

/** Real primary schools (the "previous school" list), at most 50 characters each (R5). */
const PRIMARY_SCHOOLS: readonly { name: string; district: EducationDistrict }[] = [
  ...schoolsIn('Port of Spain and Environs', [
    'Tranquillity Government Primary School',
    'Piccadilly Government Primary School',
    'Moulton Hall Methodist Primary School',
    "St Rose's Girls' RC Primary School",
    "Newtown Boys' RC Primary School",
    "Newtown Girls' RC Primary School",
    "Rosary Boys' RC Primary School",
    "Richmond Street Boys' Anglican School",
    "Malick Girls' RC Primary School",
    'Barataria Anglican Primary School',
    'San Juan RC Primary School',
    'San Juan Presbyterian Primary School',
    'Febeau Government Primary School',
    "Diego Martin Girls' RC Primary School",
    'La Puerta Government Primary School',
    'Melville Memorial Anglican Primary School',
    "St Margaret's Boys' Anglican Primary School",
    'Paramin RC Primary School',
    'Gandhi Memorial Vedic School',
  ]),
  ...schoolsIn('St George East', [
    'Curepe Anglican Primary School',
    'La Horquetta North Government Primary School',
    'La Horquetta South Government Primary School',
    'Five Rivers Hindu Primary School',
    "Arima Boys' RC Primary School",
    'Tunapuna Government Primary School',
    'Maloney Government Primary School',
    "D'Abadie Government Primary School",
  ]),
  ...schoolsIn('North Eastern', [
    'Matura Government Primary School',
    'Sangre Grande SDA Primary School',
    'Coryal RC Primary School',
    'Tamana Hindu Primary School',
    'Upper Cumuto Government Primary School',
    'Cumuto Presbyterian Primary School',
    'Fishing Pond Presbyterian Primary School',
    'Valencia South Government Primary School',
    'North Oropouche Government Primary School',
    'Cunapo St Francis RC Primary School',
  ]),
  ...schoolsIn('Caroni', [
    'Chaguanas Government Primary School',
    'Cunupia Government Primary School',
    'Longdenville Government Primary School',
    'Madras Government Primary School',
    'Jerningham Government Primary School',
    'Warrenville Presbyterian Primary School',
    'Exchange Presbyterian Primary School',
    'California Government Primary School',
    'Caroni Presbyterian Primary School',
    'Montrose Vedic School',
  ]),
  ...schoolsIn('Victoria', [
    'San Fernando TML Primary School',
    'Grant Memorial Presbyterian School',
    'Vistabella Presbyterian Primary School',
    "San Fernando Girls' Government Primary School",
    "St Paul's Anglican Primary School",
    'La Romaine RC Primary School',
    'Palmiste Government Primary School',
  ]),
  ...schoolsIn('St Patrick', [
    'Avocat Vedic Primary School',
    'Forest Reserve Anglican Primary School',
    "Siparia Boys' RC Primary School",
    'La Brea RC Primary School',
    'Vance River RC Primary School',
    'Cap-de-Ville Government Primary School',
  ]),
  ...schoolsIn('South Eastern', [
    'Mayaro Government Primary School',
    'Mafeking Government Primary School',
    'Guayaguayare RC Primary School',
    'Ortoire RC Primary School',
    'Rio Claro Presbyterian Primary School',
    'Rio Claro ASJA Primary School',
    'Santa Rita RC Primary School',
  ]),
  ...schoolsIn('Tobago', [
    'Scarborough RC Primary School',
    'Scarborough Methodist Primary School',
    'Mason Hall Government Primary School',
    'Patience Hill Government Primary School',
    'Moriah Government Primary School',
    "St Andrew's Anglican Primary School",
    'Bon Accord Government Primary School',
  ]),
];

function schoolsIn(district: EducationDistrict, names: string[]) {
  return names.map((name) => ({ name, district }));
}

type Lookups = Pick<
  Database,
  'houses' | 'towns' | 'regional_corporations' | 'religions' | 'ethnic_groups' | 'primary_schools'
>;

/**
 * Fills each empty lookup table with the values above; a table that already has rows is left
 * alone, so a school's own edits survive restarts. Safe to call on every start-up.
 */
export async function seedReferenceData(db: Kysely<Database>): Promise<void> {
  const now = nowIso();
  const stamps = { created_at: now, updated_at: now };
  const fill = async (trx: Kysely<Database>) => {
    const isEmpty = async (table: keyof Lookups) => {
      const row = await trx
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n) === 0;
    };
    if (await isEmpty('houses')) {
      await trx
        .insertInto('houses')
        .values(HOUSES.map((house) => ({ ...house, ...stamps })))
        .execute();
    }
    if (await isEmpty('regional_corporations')) {
      await trx
        .insertInto('regional_corporations')
        .values(REGIONAL_CORPORATIONS.map((title) => ({ title, ...stamps })))
        .execute();
    }
    if (await isEmpty('towns')) {
      await trx
        .insertInto('towns')
        .values(TOWNS.map((town) => ({ town_name: town.name, ...stamps })))
        .execute();
    }
    if (await isEmpty('religions')) {
      await trx
        .insertInto('religions')
        .values(RELIGIONS.map((religion) => ({ ...religion, ...stamps })))
        .execute();
    }
    if (await isEmpty('ethnic_groups')) {
      await trx
        .insertInto('ethnic_groups')
        .values(ETHNIC_GROUPS.map((group) => ({ ...group, ...stamps })))
        .execute();
    }
    if (await isEmpty('primary_schools')) {
      await trx
        .insertInto('primary_schools')
        .values(PRIMARY_SCHOOLS.map((school) => ({ ...school, ...stamps })))
        .execute();
    }
  };
  // Kysely cannot nest transactions; the demo seeder calls this inside its own.
  if (db.isTransaction) await fill(db);
  else await db.transaction().execute(fill);
}
