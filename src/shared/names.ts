/** A person's name as lists sort and show it: "Last, First", or null when neither is known. */
export function listName(person: { first_name: string | null; last_name: string | null }): string | null {
  return [person.last_name, person.first_name].filter(Boolean).join(', ') || null;
}
