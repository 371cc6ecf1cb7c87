import { monitorEventLoopDelay } from 'node:perf_hooks';
import { expect } from 'vitest';

/**
 * How long a test lets the event loop be held while heavy work runs elsewhere, whatever the work's
 * length: a quiet machine shows 10–30 ms, one loaded by other runs up to ~250 ms.
 */
export const EVENT_LOOP_BOUND_MS = 250;

/**
 * The share of the work's own duration the loop may be held for at once. Work done on the event
 * loop holds it for nearly all of its duration (a share near 1); work done elsewhere leaves only the
 * machine's own hiccups. Load on a shared machine stretches both the work and the hiccups, so a
 * share stays meaningful where a fixed bound in milliseconds turns flaky (CI saw 255 ms once).
 */
export const EVENT_LOOP_SHARE = 0.4;

export interface EventLoopMeasure<T> {
  result: T;
  /** The longest single hold of the event loop while the work ran. */
  maxDelayMs: number;
  /** How long the work took from start to end. */
  durationMs: number;
}

/**
 * The longest the event loop was held while `work` ran, in milliseconds: what every other
 * request in flight would have waited (imports and PDFs must not stall other users).
 */
export async function longestEventLoopDelay<T>(work: () => Promise<T>): Promise<EventLoopMeasure<T>> {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  try {
    // The histogram records a delay between two of its ticks: let it tick before the work starts.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const started = performance.now();
    const result = await work();
    const durationMs = performance.now() - started;
    // A loop held until the work ended is recorded when the sampling timer next fires.
    await new Promise((resolve) => setTimeout(resolve, 20));
    return { result, maxDelayMs: histogram.max / 1e6, durationMs };
  } finally {
    histogram.disable();
  }
}

/**
 * Fails when the work held the event loop: for longer than both the fixed bound and the given share
 * of the work's own duration. Tests calling this must use work that would hold the loop for well
 * over a second if it ran on it (each says how long), so the share is far from a hiccup.
 */
export function expectLoopKeptTurning(measure: Pick<EventLoopMeasure<unknown>, 'maxDelayMs' | 'durationMs'>): void {
  const allowed = Math.max(EVENT_LOOP_BOUND_MS, measure.durationMs * EVENT_LOOP_SHARE);
  expect(
    measure.maxDelayMs,
    `event loop held ${measure.maxDelayMs.toFixed(0)} ms at once during ${measure.durationMs.toFixed(0)} ms of work`,
  ).toBeLessThan(allowed);
}
