import createCache, { type EmotionCache } from '@emotion/cache';

/**
 * Emotion's style cache for MUI, one per page on the server and one in the browser, with the same
 * key: the browser's takes over the `<style data-emotion="css …">` tags the server wrote into the
 * page's head (entry-server.tsx) instead of writing them again.
 */
export function createEmotionCache(): EmotionCache {
  return createCache({ key: 'css' });
}
