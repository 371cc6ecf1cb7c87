/** The text-like fields typing can change. */
const TYPED = 'input:not([type]), input[type="text"], input[type="email"], input[type="tel"], input[type="number"], input[type="search"], input[type="password"], input[type="url"], textarea';

/**
 * What a person typed into a page rendered on the server before its code arrived (docs/decisions.md
 * D99). React hydrates a field without changing what it shows, so the field holds the typed text
 * while the screen's state holds the value the server rendered; React then records the rendered
 * value as the field's default. Once the page has hydrated, each text field whose value differs
 * from its default is handed to React as the input it was: an `input` event (the field's
 * `onChange`). The value is set through the element's own property and then the DOM's setter, so
 * React sees the change as typing would show it. A file already chosen (a photo of a birth
 * certificate taken on a phone) is handed over as its `change`. A registration field saves what
 * was typed itself, when it mounts (lib/use-typed-early.ts), so it is no longer different here.
 */
export function replayTypedBeforeHydration(root: ParentNode): void {
  for (const field of root.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>(TYPED)) {
    const typed = field.value;
    if (typed === field.defaultValue || field.readOnly || field.disabled) continue;
    field.value = field.defaultValue;
    // The DOM's own setter (the prototype's), as typing would set it.
    Reflect.set(Object.getPrototypeOf(field) as object, 'value', typed, field);
    field.dispatchEvent(new Event('input', { bubbles: true }));
  }
  for (const picker of root.querySelectorAll<HTMLInputElement>('input[type="file"]')) {
    if (picker.files?.length && !picker.disabled) picker.dispatchEvent(new Event('change', { bubbles: true }));
  }
}
