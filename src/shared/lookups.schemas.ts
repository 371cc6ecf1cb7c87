import { z } from 'zod';
import { formClassName } from './form-class.js';

/** Answers of the lookup calls (docs/requirements.md R4, R15), one schema per list. */

export const TownSchema = z.object({ id: z.number().int(), town_name: z.string() });
export const RegionalCorporationSchema = z.object({ id: z.number().int(), title: z.string() });
export const ReligionSchema = z.object({ code: z.string(), religion: z.string() });
export const EthnicGroupSchema = z.object({ id: z.string(), group_type: z.string() });
export const HouseSchema = z.object({ id: z.string(), name: z.string(), color: z.string() });
export const FormClassSchema = z.object({ id: z.string(), form_level: z.number().int() });
export const PrimarySchoolSchema = z.object({ id: z.number().int(), name: z.string(), district: z.string().nullable() });

export const TownListSchema = z.array(TownSchema);
export const RegionalCorporationListSchema = z.array(RegionalCorporationSchema);
export const ReligionListSchema = z.array(ReligionSchema);
export const EthnicGroupListSchema = z.array(EthnicGroupSchema);
export const HouseListSchema = z.array(HouseSchema);
export const FormClassListSchema = z.array(FormClassSchema);
export const PrimarySchoolListSchema = z.array(PrimarySchoolSchema);

export type Town = z.infer<typeof TownSchema>;
export type RegionalCorporation = z.infer<typeof RegionalCorporationSchema>;
export type Religion = z.infer<typeof ReligionSchema>;
export type EthnicGroup = z.infer<typeof EthnicGroupSchema>;
export type House = z.infer<typeof HouseSchema>;
export type FormClass = z.infer<typeof FormClassSchema>;
export type PrimarySchool = z.infer<typeof PrimarySchoolSchema>;

/** The lookups a registration field can draw its values from. */
export const LOOKUP_NAMES = [
  'towns',
  'regionalCorporations',
  'religions',
  'ethnicGroups',
  'houses',
  'formClasses',
  'primarySchools',
] as const;
export type LookupName = (typeof LOOKUP_NAMES)[number];

/**
 * Per lookup: its API path, the answer schema, which property a record stores (`value`) and
 * which one a person reads (`label`). The screens and the server's existence check both use it.
 */
export const LOOKUPS = {
  towns: { path: '/api/towns', schema: TownListSchema, value: 'town_name', label: 'town_name' },
  regionalCorporations: {
    path: '/api/regional-corporation',
    schema: RegionalCorporationListSchema,
    value: 'title',
    label: 'title',
  },
  religions: { path: '/api/religions', schema: ReligionListSchema, value: 'code', label: 'religion' },
  ethnicGroups: { path: '/api/ethnic-groups', schema: EthnicGroupListSchema, value: 'id', label: 'group_type' },
  houses: { path: '/api/houses', schema: HouseListSchema, value: 'id', label: 'name' },
  formClasses: { path: '/api/form-classes-list', schema: FormClassListSchema, value: 'id', label: 'id' },
  primarySchools: { path: '/api/primary-schools', schema: PrimarySchoolListSchema, value: 'name', label: 'name' },
} as const satisfies Record<LookupName, { path: string; schema: z.ZodType; value: string; label: string }>;

/** A lookup's rows as `{ value, label }` options, the shape a select needs; a form class reads 'Form 4 4A'. */
export function toLookupOptions(name: LookupName, rows: readonly Record<string, unknown>[]): { value: string; label: string }[] {
  const { value, label } = LOOKUPS[name];
  const labelOf = (row: Record<string, unknown>) =>
    name === 'formClasses' ? (formClassName(String(row[label]), typeof row['form_level'] === 'number' ? row['form_level'] : null) ?? '') : String(row[label]);
  return rows.map((row) => ({ value: String(row[value]), label: labelOf(row) }));
}
