import { composeMail, type MailContext, type RenderedMail } from './layout.js';

/**
 * A student replaced this address on their registration record (docs/decisions.md D66): the parent
 * it belonged to is told, since the record's parent e-mails are where the student's invitations
 * may go, and a student should not be able to move them away from a parent unseen.
 */
export interface FamilyParentEmailChangedData {
  studentName: string;
  field: 'email_mother' | 'email_father' | 'email_guardian';
}

const FIELD_LABELS: Record<FamilyParentEmailChangedData['field'], string> = {
  email_mother: "mother's e-mail",
  email_father: "father's e-mail",
  email_guardian: "guardian's e-mail",
};

export function familyParentEmailChanged(data: FamilyParentEmailChangedData, context: MailContext): RenderedMail {
  const label = FIELD_LABELS[data.field] ?? 'parent e-mail';
  return composeMail(
    {
      subject: `The ${label} on ${data.studentName}'s school record was changed`,
      heading: 'An e-mail address on the record was changed',
      blocks: [
        {
          text: `This address was the ${label} on ${data.studentName}'s registration record at ${context.schoolName}. It was just replaced by a change made from the student's own sign-in, so school invitations and messages may now go to another address.`,
        },
        { text: `If you did not expect this change, please contact the school office. The school can see the change and put your address back.` },
      ],
    },
    context,
  );
}
