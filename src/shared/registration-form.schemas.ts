import { z } from 'zod';

/**
 * What the registration form says, as data (D75): the server builds it once from the record
 * (`registration-form.content.ts`), the PDF lays it out on Legal paper and the phone's view reads
 * it as JSON (`GET /api/registration-form/{studentId}/content`). Neither adds words of its own.
 */

export const FormRowSchema = z.object({
  label: z.string(),
  /** The printed value; null: left empty (a line to write on in print). */
  value: z.string().nullable(),
});
export type FormRow = z.infer<typeof FormRowSchema>;

export const FormBlockSchema = z.object({
  /** A block's own heading inside its section (Mother, Family Size…); null for none. */
  title: z.string().nullable(),
  rows: z.array(FormRowSchema),
  /**
   * Where the printed page puts the block (the screen lists blocks one under another):
   * `photo` beside the picture, `parent` side by side with the other parent, `aside` beside a
   * single parent, `grid` in columns, `wide` one row a line.
   */
  place: z.enum(['photo', 'parent', 'aside', 'grid', 'wide']),
});
export type FormBlock = z.infer<typeof FormBlockSchema>;

export const FormSectionSchema = z.object({
  key: z.enum(['student', 'family', 'health', 'other']),
  title: z.string(),
  blocks: z.array(FormBlockSchema),
});
export type FormSection = z.infer<typeof FormSectionSchema>;

export const FormDocumentSchema = z.object({
  label: z.string(),
  /** Received (submitted or accepted): ticked on paper. */
  received: z.boolean(),
  /** accepted, received, returned, missing or not required. */
  note: z.string(),
});

export const RegistrationFormContentSchema = z.object({
  schoolName: z.string(),
  title: z.string(),
  studentName: z.string(),
  studentId: z.string(),
  sections: z.array(FormSectionSchema),
  documentsTitle: z.string(),
  documents: z.array(FormDocumentSchema),
  terms: z.object({
    title: z.string(),
    paragraphs: z.array(z.string()),
    declaration: z.string(),
    /** "Agreed online by … on …", or that the parent or guardian signs below. */
    agreement: z.string(),
    agreed: z.boolean(),
    signatures: z.array(z.string()),
  }),
  printedAt: z.string(),
});
export type RegistrationFormContent = z.infer<typeof RegistrationFormContentSchema>;

/** The address of a student's registration form as data (the phone's view of the PDF). */
export function registrationFormContentUrl(studentId: string): string {
  return `/api/registration-form/${encodeURIComponent(studentId)}/content`;
}
