import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

/**
 * Test files that replace a module with `vi.mock`: they run in a project of their own that loads
 * every module afresh for each file. Everywhere else the server's modules are loaded once per
 * worker and shared by the files it runs (`isolate: false`): loading them again for each file was
 * about a third of the server suites' time (docs/testing.md). A mock in a shared module graph would
 * miss modules already loaded by an earlier file, or leak into later ones.
 */
const MOCKING_FILES = ['src/server/family/family.routes.test.ts'];

/**
 * Test files that check which modules the process has loaded (the main thread never loads
 * exceljs: xlsx-writer.ts), so they too need a module graph no earlier file has filled. Engine
 * free: SQLite's isolated project only.
 */
const OWN_GRAPH_FILES = ['src/server/spreadsheets/xlsx-writer.test.ts'];

/**
 * Server test files that prove nothing about the database engine, run on SQLite only: pure
 * modules (no SQL at all), and the content of made documents (PDF text and layout), whose queries
 * the route tests run on both engines. The PostgreSQL run would repeat them byte for byte.
 */
const ENGINE_FREE_FILES = [
  'src/server/students/class-reports-text.test.ts',
  'src/server/students/registration-report.pdf.test.ts',
  'src/server/spreadsheets/spreadsheet-cells.test.ts',
  'src/server/students/student-import.test.ts',
  'src/server/attendance/daily-record.test.ts',
  'src/server/auth/password.test.ts',
  'src/server/config.test.ts',
  'src/server/documents/file-sniffing.test.ts',
  'src/server/documents/pdf-inspection.test.ts',
  'src/server/access/roles.test.ts',
  'src/server/http/signing.test.ts',
  'src/server/mail/templates/layout.test.ts',
  'src/server/pdf/render-on-pool.test.ts',
  'src/server/registration-form/registration-form.content.test.ts',
  'src/server/term-reports/report-card.pdf.test.ts',
  // Inline or attachment: the PDF answer's headers; each PDF's query runs in its feature's route tests.
  'src/server/pdf/pdf-download.routes.test.ts',
  // What the log says of a client that left; it holds SQLite's one connection to keep a request waiting.
  'src/server/http/logging.test.ts',
  // A stop of the process with a browser's unused connection open: the process's, whatever the engine.
  'tests/security/shutdown.test.ts',
];

/** The server suite on one engine: the shared-module project, and the mocking files isolated. */
function serverProjects(engine: 'sqlite' | 'postgres', files: { include: string[]; exclude: string[] }): TestProjectInlineConfiguration[] {
  const common = {
    env: { TEST_DB: engine },
    globalSetup: ['tests/support/global-setup.ts'],
    setupFiles: ['tests/support/fail-on-console-error.ts'],
    // Hang guards, not speed bounds: a whole-school registration report takes about 5 s here when
    // the machine is quiet and passed 30 s on PostgreSQL with two builds running beside the suite.
    testTimeout: 90_000,
    hookTimeout: 120_000,
  };
  return [
    { test: { ...common, name: engine, include: files.include, exclude: [...files.exclude, ...MOCKING_FILES, ...OWN_GRAPH_FILES], isolate: false } },
    { test: { ...common, name: `${engine}-isolated`, include: engine === 'sqlite' ? [...MOCKING_FILES, ...OWN_GRAPH_FILES] : MOCKING_FILES } },
  ];
}

/**
 * Four kinds of project, each test at the cheapest layer that proves it (docs/testing.md): the
 * unit and API suite on SQLite, the server suite again on PostgreSQL (each with an `-isolated`
 * twin for the mocking files), the web client's tests in jsdom (component tests with Testing
 * Library, and the client's plain modules), and the browser suite. scripts/test.mjs decides which
 * can run on this machine.
 */
export default defineConfig({
  test: {
    // `npm run test:coverage`: what the unit and API suites cover of the server and the shared
    // rules (docs/testing.md keeps the figure; the browser suite is not measured).
    coverage: {
      provider: 'v8',
      include: ['src/server/**/*.ts', 'src/shared/**/*.ts'],
      exclude: ['**/*.test.ts', '**/*.test.tsx', 'src/server/db/demo-data/**'],
      reporter: ['text-summary', 'json-summary'],
      reportsDirectory: 'coverage',
    },
    projects: [
      ...serverProjects('sqlite', {
        // tests/security: the suites that sweep the whole app (every route, two processes).
        include: ['src/**/*.test.{ts,tsx}', 'tests/security/**/*.test.ts'],
        // The web client's tests are the web project's: they need a DOM, not a database.
        exclude: ['src/web/**'],
      }),
      ...serverProjects('postgres', {
        include: ['src/server/**/*.test.ts', 'tests/security/**/*.test.ts'],
        exclude: ['src/server/db/demo-data/**', ...ENGINE_FREE_FILES],
      }),
      {
        test: {
          name: 'web',
          include: ['src/web/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['tests/support/fail-on-console-error.ts', 'tests/support/web-setup.ts'],
          // A hang guard, not a speed bound: typing into a form with user-event took more than
          // Vitest's default 5 s while the browser suite and the server suites ran beside it.
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.spec.ts'],
          globalSetup: ['tests/support/global-setup.ts', 'tests/support/build-web.ts'],
          // The server-side build of the client (tests/support/build-web.ts) is loaded by Node, as
          // in production: Vitest's own module loader evaluated its chunks' import cycles in
          // another order, and a page then ran before a chunk it needed had finished ("Cannot
          // access … before initialization"), falling back to the shell at random.
          server: { deps: { external: [/portal-web-[^/]*-ssr\//] } },
          testTimeout: 90_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          // The spec files run one after another in one process that loads the server's modules
          // once: importing them again for each file was about two seconds a file. Each spec
          // still starts its own portal over its own database and its own Chromium contexts.
          isolate: false,
        },
      },
    ],
  },
});
