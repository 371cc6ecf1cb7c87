import { monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * How long a test lets the event loop be held while heavy work runs elsewhere: generous, because
 * the machines are shared (a quiet one shows 10–30 ms, one loaded by other runs up to ~200 ms),
 * while work on the event loop itself holds it for seconds.
 */
export const EVENT_LOOP_BOUND_MS = 250;

/**
 * The longest the event loop was held while `work` ran, in milliseconds: what every other
 * request in flight would have waited (imports and PDFs must not stall other users).
 */
export async function longestEventLoopDelay<T>(work: () => Promise<T>): Promise<{ result: T; maxDelayMs: number }> {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  try {
    // The histogram records a delay between two of its ticks: let it tick before the work starts.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const result = await work();
    // A loop held until the work ended is recorded when the sampling timer next fires.
    await new Promise((resolve) => setTimeout(resolve, 20));
    return { result, maxDelayMs: histogram.max / 1e6 };
  } finally {
    histogram.disable();
  }
}
