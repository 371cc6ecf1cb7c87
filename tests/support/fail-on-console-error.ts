import { afterEach, beforeEach, vi } from 'vitest';

// A test that logs console.error has hidden a failure (epic-stack's setup-test-env): fail it.
let spy: ReturnType<typeof vi.spyOn> | undefined;
beforeEach(() => {
  spy = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    throw new Error(`console.error was called: ${args.map(String).join(' ')}`);
  });
});
afterEach(() => {
  spy?.mockRestore();
});
