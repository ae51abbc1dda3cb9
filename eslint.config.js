// Lint, including the import boundaries of DESIGN.md.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import drydock from './scripts/eslint/no-import-cycles.js';

const nodeBuiltins = ['node:*', 'fs', 'path', 'os', 'crypto', 'child_process', 'http', 'https', 'net', 'url', 'util', 'stream', 'worker_threads'];

export default tseslint.config(
  // `*.config.ts.<time>.mjs`: the build's bundled copy of its config, there for a moment while the
  // build (run beside lint by `npm test`) starts; linting it could find it gone.
  { ignores: ['out/**', 'node_modules/**', 'test-output/**', 'coverage/**', '.notes/**', '*.config.ts.*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-restricted-imports': ['error', { paths: [{ name: 'electron', message: 'Only src-main/app may import electron.' }] }],
    },
  },
  {
    // No import circles anywhere in the sources, type-only imports included: what two modules both
    // need moves into a lower module that neither owns (DESIGN.md). Lazy `import()`s count too.
    files: ['src-main/**/*.ts', 'src-shared/**/*.ts', 'src-renderer/**/*.{ts,tsx}'],
    plugins: { drydock },
    rules: { 'drydock/no-import-cycles': 'error' },
  },
  {
    // src-shared is pure: it runs in main, renderer and workers alike.
    files: ['src-shared/**'],
    languageOptions: { globals: { ...globals['shared-node-browser'] } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'src-shared is pure.' }, ...nodeBuiltins.filter((n) => !n.includes('*')).map((name) => ({ name, message: 'src-shared is pure: no Node built-ins.' }))],
          patterns: [
            { group: ['node:*'], message: 'src-shared is pure: no Node built-ins.' },
            { group: ['**/src-main/**', '**/src-renderer/**'], message: 'src-shared imports nothing from main or renderer.' },
          ],
        },
      ],
      'no-restricted-globals': ['error', 'window', 'document', 'process', 'Buffer', 'require', '__dirname'],
    },
  },
  {
    // The renderer is a plain client of the HTTP API: no Node, no electron, nothing from main.
    files: ['src-renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'The renderer reaches the main process only through the preload bridge.' }],
          patterns: [
            { group: ['node:*'], message: 'The renderer has no Node.' },
            { group: ['**/src-main/**'], message: 'The renderer talks to the service only over its typed HTTP client.' },
          ],
        },
      ],
    },
  },
  {
    // Only the Electron shell may import electron.
    files: ['src-main/app/**'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['src-main/**'],
    ignores: ['src-main/app/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'Only src-main/app may import electron.' }],
          patterns: [{ group: ['**/src-renderer/**'], message: 'The service does not import the renderer.' }],
        },
      ],
    },
  },
);
