import { monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * The longest the event loop was held while `work` ran, in milliseconds: what every other
 * request in flight would have waited (issue 14: imports and PDFs must not stall other users).
 */
export async function longestEventLoopDelay<T>(work: () => Promise<T>): Promise<{ result: T; maxDelayMs: number }> {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  try {
    const result = await work();
    // A loop held until the work ended is recorded when the sampling timer next fires.
    await new Promise((resolve) => setTimeout(resolve, 20));
    return { result, maxDelayMs: histogram.max / 1e6 };
  } finally {
    histogram.disable();
  }
}
