import { useEffect, useState } from 'react';

/**
 * False until the browser has painted the component's first render, then true. A screen renders
 * what a person looks for first (a search box) and asks for heavy code (a data grid) only once
 * that is on screen, so the heavy file does not share the network with what paints first (D64).
 * The frame callback runs before the next paint and the timer it sets runs after it.
 */
export function usePainted(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    let timer: number | undefined;
    const frame = window.requestAnimationFrame(() => {
      timer = window.setTimeout(() => setPainted(true));
    });
    return () => {
      window.cancelAnimationFrame(frame);
      window.clearTimeout(timer);
    };
  }, []);
  return painted;
}
