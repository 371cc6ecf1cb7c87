import { useEffect, useState } from 'react';

/** `value`, but only after it has stopped changing for `delayMs`; `flush` takes it at once. */
export function useDebouncedValue<T>(value: T, delayMs: number): [debounced: T, flush: () => void] {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setDebounced(value), delayMs);
    return () => window.clearTimeout(timer);
  }, [value, delayMs]);
  return [debounced, () => setDebounced(value)];
}
