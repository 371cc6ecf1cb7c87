/**
 * A count with its noun, singular for one: "1 class", "3 classes", "0 students". The one
 * pluralising helper of the screens and messages; `many` for a plural that is not the noun + s.
 */
export function countOf(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
