import { lazy, Suspense } from 'react';
import { AppShell } from '../components/app-shell.js';
import { useSession } from '../lib/session.js';

// Only a family account has children to choose from: loaded for them alone.
const ChildSwitcher = lazy(async () => ({ default: (await import('../family/child-switcher.js')).ChildSwitcher }));

/** The signed-in frame, with a family account's child switcher under the app bar. */
export function SignedInShell() {
  const role = useSession().data?.user?.role;
  return (
    <AppShell
      subheader={
        role === 'guardian' ? (
          <Suspense fallback={null}>
            <ChildSwitcher />
          </Suspense>
        ) : undefined
      }
    />
  );
}
