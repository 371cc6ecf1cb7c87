// @ts-check
import fs from 'node:fs';
import path from 'node:path';
import tseslint from 'typescript-eslint';
import importPlugin from 'eslint-plugin-import';
import reactHooks from 'eslint-plugin-react-hooks';

/**
 * Lint keeps the boundaries of docs/architecture.md: src/shared imports nothing from server/ or web/, the web
 * never imports the server, a web feature never reaches into another, the server's infrastructure
 * imports no server feature, a server feature never reaches into another's repository, and no
 * import cycles.
 * TypeScript under src/ and tests/ gets the type-checked rules; the plain .mjs of bench/ and
 * scripts/ and the config files get the syntactic set only.
 */

/** Web folders that are not features: the shell that composes them, and what they all share. */
const webCommon = new Set(['app', 'components', 'lib', 'public']);
const webFeatures = fs
  .readdirSync(path.join(import.meta.dirname, 'src/web'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !webCommon.has(entry.name))
  .map((entry) => entry.name);

/**
 * Server folders that are infrastructure: they serve every feature and know none (D87), so a
 * feature can be added or removed without touching them. `access` is where the access policy
 * lives (D86); `audit` is the audit trail every feature writes. Every other folder of src/server
 * is a feature; the files directly in src/server (app.ts, worker-tasks.ts, main.ts) compose them.
 */
const serverInfrastructure = ['access', 'audit', 'db', 'http', 'mail', 'pdf', 'spreadsheets', 'workers'];
const serverFeatures = fs
  .readdirSync(path.join(import.meta.dirname, 'src/server'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !serverInfrastructure.includes(entry.name))
  .map((entry) => entry.name);

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'test-results/**', 'data/**'] },
  ...tseslint.configs.recommended,
  {
    files: ['src/**/*.{ts,tsx}', 'tests/**/*.ts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { import: importPlugin },
    settings: {
      'import/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      // The TypeScript resolver maps our NodeNext-style `./x.js` specifiers to `./x.ts`; without it
      // every relative import is unresolved and the zones and the cycle check see nothing.
      'import/resolver': { typescript: { project: path.join(import.meta.dirname, 'tsconfig.json') } },
    },
    rules: {
      'import/no-restricted-paths': [
        'error',
        {
          basePath: import.meta.dirname,
          zones: [
            { target: './src/shared', from: './src/server', message: 'src/shared is plain TS + zod for both sides.' },
            { target: './src/shared', from: './src/web', message: 'src/shared is plain TS + zod for both sides.' },
            { target: './src/web', from: './src/server', message: 'The web client never imports server code.' },
            { target: './src/server', from: './src/web', message: 'The server never imports web code.' },
            ...webFeatures.map((feature) => ({
              target: `./src/web/${feature}`,
              from: './src/web',
              except: [`./${feature}`, './components', './lib'],
              message: 'A web feature imports only itself, components/ and lib/; shared UI goes to src/web/components.',
            })),
            {
              target: ['./src/web/components', './src/web/lib'],
              from: webFeatures.map((feature) => `./src/web/${feature}`),
              message: 'Only src/web/app composes features.',
            },
            ...serverInfrastructure.map((folder) => ({
              target: `./src/server/${folder}`,
              from: serverFeatures.map((feature) => `./src/server/${feature}`),
              message: 'Server infrastructure knows no feature: the feature hands it what it needs (D87).',
            })),
            // A server feature reads another's data through that feature's service, so its queries
            // (and the rules around them) stay the owner's (D86).
            ...serverFeatures.map((feature) => ({
              target: `./src/server/${feature}/**`,
              from: serverFeatures.filter((other) => other !== feature).map((other) => `./src/server/${other}/**/*.repository.ts`),
              message: "A server feature never imports another feature's repository: call that feature's service.",
            })),
          ],
        },
      ],
      'import/no-unresolved': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    // A cycle needs a module that is imported: test files never are, so the check (about half of
    // the lint's time when it also walked from every test file) runs on what can be imported.
    files: ['src/**/*.{ts,tsx}', 'tests/support/**/*.ts'],
    ignores: ['**/*.test.{ts,tsx}', '**/*.spec.ts'],
    rules: { 'import/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    // Fastify tells an async plugin or hook from a callback one by the function being async, so one
    // that awaits nothing is still written `async` (its types ask for a promise): without the
    // keyword, Fastify would wait for a `done` that is never called.
    files: ['src/server/**/*.ts'],
    rules: { '@typescript-eslint/require-await': 'off' },
  },
  {
    // The classic hook rules. The React Compiler rules of the plugin's `recommended` are left off:
    // the portal does not run the compiler, and they flag sound code here (form state seeded from
    // a query in an effect, a ref handed out in a hook's result).
    files: ['src/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
);
