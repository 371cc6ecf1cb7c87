/**
 * jsdom has no matchMedia; MUI's useMediaQuery and the theme ask it. One answer to a media query,
 * matching or not, for web-setup.ts's default (nothing matches: the desktop layout) and for the
 * tests that pretend a phone's pointer or a device's preference.
 */
export function mediaQueryList(query: string, matches: boolean): MediaQueryList {
  return {
    matches,
    media: query,
    onchange: null,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    addListener: () => undefined,
    removeListener: () => undefined,
    dispatchEvent: () => false,
  };
}
