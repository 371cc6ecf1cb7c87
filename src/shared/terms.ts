/**
 * The school's terms and conditions of registration (docs/requirements.md R8): shown on the Complete
 * step above the agree control and printed on the registration form with the date agreed, so the
 * words a parent agreed to and the words on paper are the same.
 */

export const TERMS_TITLE = 'Terms and Conditions of Registration';

export const TERMS_PARAGRAPHS: readonly string[] = [
  'The information given in this registration record and the documents uploaded with it are true and complete. The school may check them with the issuing offices, and a false statement may lead to the registration being withdrawn.',
  'The parent or guardian will tell the school office at once of any change of address, telephone number, guardian, or of the health information given, so the school can reach the family in an emergency.',
  "In a medical emergency, when the parent or guardian cannot be reached, the school may seek treatment for the student and will inform the family as soon as possible.",
  'The student will attend school regularly and on time, wear the school uniform, and follow the school rules and the Ministry of Education’s National School Code of Conduct.',
  'The school keeps this record and the documents for the school’s own use and the Ministry of Education’s returns. They are not given to anyone else without the parent’s or guardian’s consent, unless the law requires it.',
  'The school may take photographs of school activities in which the student appears for the school’s own publications. A parent or guardian who does not consent writes to the principal.',
];

/** The declaration above the signature lines. */
export const TERMS_DECLARATION =
  'I, the parent or guardian of the student named in this form, have read and agree to the Terms and Conditions of Registration, and declare that the information given is true.';
