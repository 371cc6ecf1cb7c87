// @ts-check
import tseslint from 'typescript-eslint';
import importPlugin from 'eslint-plugin-import';

/**
 * Lint keeps the boundaries of STYLE.md: src/shared imports nothing from server/ or web/, the web
 * never imports the server, and no import cycles.
 */
export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'test-results/**', 'data/**'] },
  ...tseslint.configs.recommended,
  {
    files: ['src/**/*.{ts,tsx}', 'tests/**/*.ts'],
    plugins: { import: importPlugin },
    settings: { 'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js'] } } },
    rules: {
      'import/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './src/shared', from: './src/server', message: 'src/shared is plain TS + zod for both sides.' },
            { target: './src/shared', from: './src/web', message: 'src/shared is plain TS + zod for both sides.' },
            { target: './src/web', from: './src/server', message: 'The web client never imports server code.' },
            { target: './src/server', from: './src/web', message: 'The server never imports web code.' },
          ],
        },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
);
