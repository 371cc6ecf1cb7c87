import { useEffect, type RefObject } from 'react';

/**
 * What a person typed into a field of a page rendered on the server before the page's code had
 * arrived (docs/decisions.md D99). React hydrates a field without touching what it shows, so the
 * field still holds the typed text while its state holds the value the server rendered: on the
 * field's first mount, a difference is handed to `take` as if typed then, with whether the field
 * still has the focus (left already, it is saved as a left field would be).
 */
export function useTypedEarly(ref: RefObject<HTMLInputElement | HTMLTextAreaElement | null>, rendered: string, take: (typed: string, stillFocused: boolean) => void): void {
  useEffect(() => {
    const input = ref.current;
    if (input && input.value !== rendered) take(input.value, input.ownerDocument.activeElement === input);
    // Once, on the mount that hydrates the field: later differences are React's own changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}
