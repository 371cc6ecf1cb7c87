import { describe, expect, it } from 'vitest';
import { indexHtmlWithPreloads, manifestKeyOf, preloadFilesFor, type BuildManifest } from './web-preloads.js';

/** A build's manifest in miniature: an entry, a lazily loaded frame and screen, a shared chunk. */
const MANIFEST: BuildManifest = {
  'index.html': { file: 'assets/index-1.js', isEntry: true, imports: ['_vendor-1.js'] },
  '_vendor-1.js': { file: 'assets/vendor-1.js', name: 'vendor' },
  'components/app-shell.tsx': { file: 'assets/app-shell-1.js', src: 'components/app-shell.tsx', imports: ['_vendor-1.js', '_student-area-1.js'] },
  '_student-area-1.js': { file: 'assets/student-area-1.js', name: 'student-area', imports: ['_vendor-1.js'] },
  // Imported statically by another screen too, so a shared chunk named after the module.
  '_registration-routes-1.js': { file: 'assets/registration-routes-1.js', name: 'registration-routes', imports: ['_student-area-1.js', '_schemas-1.js'] },
  '_schemas-1.js': { file: 'assets/schemas-1.js', name: 'schemas' },
  'registration/registration.api.ts': { file: 'assets/registration.api-1.js', src: 'registration/registration.api.ts', imports: ['_schemas-1.js'] },
  'dashboard/dashboard-page.tsx': { file: 'assets/dashboard-page-1.js', src: 'dashboard/dashboard-page.tsx', imports: ['_vendor-1.js'] },
};

const INDEX = '<html><head><title>Portal</title></head><body></body></html>';

describe('route preloads', () => {
  it('finds a module by its key, or the shared chunk named after it', () => {
    expect(manifestKeyOf(MANIFEST, 'components/app-shell.tsx')).toBe('components/app-shell.tsx');
    expect(manifestKeyOf(MANIFEST, 'registration/registration-routes.tsx')).toBe('_registration-routes-1.js');
    expect(manifestKeyOf(MANIFEST, 'registration/nowhere.tsx')).toBeUndefined();
  });

  it("names the screens' files and what they import, but nothing the entry already loads", () => {
    expect(preloadFilesFor(MANIFEST, ['components/app-shell.tsx', 'registration/registration-routes.tsx'])).toEqual([
      '/assets/app-shell-1.js',
      '/assets/registration-routes-1.js',
      '/assets/schemas-1.js',
      '/assets/student-area-1.js',
    ]);
  });

  it("adds modulepreload links to a screen's path only", () => {
    const htmlFor = indexHtmlWithPreloads(INDEX, MANIFEST);
    const registration = htmlFor('/registration/student-data');
    expect(registration).toContain('<link rel="modulepreload" crossorigin href="/assets/registration-routes-1.js" />');
    expect(registration).toContain('<link rel="modulepreload" crossorigin href="/assets/registration.api-1.js" />');
    expect(registration).not.toContain('vendor-1.js');
    expect(registration.indexOf('modulepreload')).toBeLessThan(registration.indexOf('</head>'));
    expect(htmlFor('/registration')).toBe(registration);
    expect(htmlFor('/dashboard')).toContain('/assets/dashboard-page-1.js');
    // The sign-in pages, the admin area and look-alike paths get the page as built.
    for (const path of ['/', '/admin/dashboard', '/registrations', '/logout']) expect(htmlFor(path)).toBe(INDEX);
  });

  it('serves the page as built when the build has no manifest', () => {
    expect(indexHtmlWithPreloads(INDEX, undefined)('/registration/student-data')).toBe(INDEX);
  });
});
