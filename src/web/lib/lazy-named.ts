import { lazy, useState, type ComponentType, type LazyExoticComponent } from 'react';

/**
 * `React.lazy` for a named export: the component's module is fetched the first time it renders,
 * so what the first screen does not show stays off its load (docs/performance.md, web). Render
 * it inside a `<Suspense>`.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- React.lazy's own bound: any props.
export function lazyNamed<M extends Record<K, ComponentType<any>>, K extends keyof M>(
  load: () => Promise<M>,
  name: K,
): LazyExoticComponent<M[K]> {
  return lazy(async () => ({ default: (await load())[name] }));
}

/**
 * True from the first render in which `open` is true: a lazily loaded dialog is mounted when it
 * first opens and then stays mounted, so its closing transition still plays.
 */
export function useOpenedOnce(open: boolean): boolean {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened || open;
}
