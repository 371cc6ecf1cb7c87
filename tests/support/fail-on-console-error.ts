import { afterEach, beforeEach, vi, type MockInstance } from 'vitest';

// A test that logs console.error has hidden a failure (epic-stack's setup-test-env): fail it.
let spy: MockInstance<typeof console.error> | undefined;
beforeEach(() => {
  spy = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    throw new Error(`console.error was called: ${args.map(String).join(' ')}`);
  });
});
afterEach(() => {
  spy?.mockRestore();
});
