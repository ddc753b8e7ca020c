import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'bench/results/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read settings from Config (src/config.ts), not process.env.' },
      ],
    },
  },
  {
    // The pages' scripts run in the browser, as modules, unbuilt.
    files: ['public/**/*.js'],
    languageOptions: {
      globals: {
        document: 'readonly', window: 'readonly', navigator: 'readonly', fetch: 'readonly', AbortController: 'readonly', URLSearchParams: 'readonly',
        HTMLElement: 'readonly', HTMLInputElement: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly',
      },
    },
  },
  {
    // The embeddable search box: a custom element (served bundled as one classic script, src/registry/embed).
    files: ['public/embed/*.js'],
    languageOptions: {
      globals: { customElements: 'readonly', CSSStyleSheet: 'readonly', CustomEvent: 'readonly' },
    },
  },
  {
    // Config parsing, tests and benchmarks are where the environment is legitimately read (and the OpenAPI
    // lint, which hands it to Redocly with telemetry and the update check off).
    files: ['src/config.ts', 'test/**', 'bench/**', 'jest.config.js', 'scripts/lint-openapi.mjs'],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    // CommonJS where a tool requires the file (jest's runtime).
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', module: 'writable' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
