const FALLBACK_SCHOOL_NAME = 'St. Andrew’s Secondary School';

/** The school's name, from index.html's application-name meta (the server may set it). */
export function readSchoolName(): string {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="application-name"]');
  return meta?.content.trim() || FALLBACK_SCHOOL_NAME;
}

/** Read once: it cannot change while the page is open. */
export const SCHOOL_NAME = readSchoolName();
