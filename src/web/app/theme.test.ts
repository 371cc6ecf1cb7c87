import { afterEach, describe, expect, it, vi } from 'vitest';
import { mediaQueryList } from '../../../tests/support/media-query.js';

/** The theme as a device that does (or does not) ask for reduced motion loads it. */
async function themeWhenReducedMotion(reduce: boolean) {
  const asked = vi.spyOn(window, 'matchMedia').mockImplementation((query: string) => mediaQueryList(query, reduce && query === '(prefers-reduced-motion: reduce)'));
  try {
    vi.resetModules();
    return (await import('./theme.js')).theme;
  } finally {
    asked.mockRestore();
  }
}

afterEach(() => {
  vi.resetModules();
});

describe('the theme and reduced motion', () => {
  it('keeps MUI’s transitions and ripples for a device that has not asked for less motion', async () => {
    const theme = await themeWhenReducedMotion(false);
    expect(theme.transitions.create('opacity')).toMatch(/^opacity \d+ms/);
    expect(theme.transitions.duration.enteringScreen).toBeGreaterThan(0);
    expect(theme.components?.MuiButtonBase?.defaultProps?.disableRipple).toBe(false);
  });

  it('drops them for a device that asks for reduced motion', async () => {
    const theme = await themeWhenReducedMotion(true);
    expect(theme.transitions.create('opacity')).toBe('none');
    expect(theme.transitions.duration.enteringScreen).toBe(0);
    expect(theme.transitions.duration.leavingScreen).toBe(0);
    expect(theme.components?.MuiButtonBase?.defaultProps?.disableRipple).toBe(true);
  });
});
