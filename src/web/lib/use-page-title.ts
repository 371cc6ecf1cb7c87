import { useEffect } from 'react';
import { schoolName } from './school-name.js';

/** Sets the tab title to '{title} · {school}', so each screen is announced by its name. */
export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · ${schoolName()}`;
  }, [title]);
}
