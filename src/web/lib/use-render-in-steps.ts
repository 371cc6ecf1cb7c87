import { startTransition, useEffect, useState } from 'react';

/**
 * How many of `total` parts of a long screen to render: `first` at once, then one more after each
 * commit, each as a transition. React cannot split one commit, and a registration step's forty
 * fields committed together were one long task (Lighthouse's Total Blocking Time;
 * docs/performance.md, web); part by part, each commit is short and the top shows first.
 */
export function useRenderInSteps(total: number, first: number): number {
  const [count, setCount] = useState(first);
  useEffect(() => {
    if (count < total) startTransition(() => setCount((shown) => shown + 1));
  }, [count, total]);
  return Math.min(count, total);
}
