const FALLBACK_SCHOOL_NAME = 'St. Andrew’s Secondary School';

let known: string | null = null;

/** The school's name, from index.html's application-name meta (the server sets it). */
function readSchoolName(): string {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="application-name"]');
  return meta?.content.trim() || FALLBACK_SCHOOL_NAME;
}

/** The school's name: read once from the page in the browser; on the server, as its configuration says (`setSchoolName`). */
export function schoolName(): string {
  known ??= readSchoolName();
  return known;
}

/** The name pages rendered on the server show: the server's SCHOOL_NAME (entry-server.tsx). */
export function setSchoolName(name: string): void {
  known = name.trim() || FALLBACK_SCHOOL_NAME;
}
