// ESLint for the front end, the end-to-end tests and the build scripts: `make lint` (and so
// `make test`) runs `eslint --max-warnings 0 .`. TypeScript is linted with type information
// (typescript-eslint's type-checked set: about half a minute for the whole tree on two cores),
// React code with the hooks rules, all as errors, and web/src with the import boundaries of
// web/eslint/boundaries.js.
import js from '@eslint/js';
import comments from '@eslint-community/eslint-plugin-eslint-comments';
import reactHooks from 'eslint-plugin-react-hooks';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import path from 'node:path';
import tseslint from 'typescript-eslint';
import boundaries from './web/eslint/boundaries.js';

const typescript = ['web/src/**/*.{ts,tsx}', 'web/test/**/*.{ts,tsx}', 'e2e/**/*.ts'];
const scripts = ['web/scripts/*.mjs', 'scripts/**/*.mjs', 'e2e/**/*.mjs', 'eslint.config.js', 'web/eslint/*.js'];

const hooks = reactHooks.configs.flat['recommended-latest'];

export default defineConfig(
  // web/eslint/fixtures/ is a tree of empty modules for the boundaries rule's test.
  { ignores: ['web/build/', 'web/dist/', 'node_modules/', 'e2e/test-results/', 'e2e/report/', 'web/eslint/fixtures/'] },
  {
    files: [...typescript, ...scripts],
    extends: [js.configs.recommended, tseslint.configs.recommendedTypeChecked],
    plugins: { '@eslint-community/eslint-comments': comments },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // A rule switched off says why: `// eslint-disable-next-line rule -- reason`.
      '@eslint-community/eslint-comments/require-description': 'error',
      // `async` is how a function (an interface's method, a test's fake) says it returns a
      // promise; one with nothing to await is not a bug.
      '@typescript-eslint/require-await': 'off',
      // `const { dropped: _, ...kept } = x` is how an object loses a field.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
    },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    plugins: { ...hooks.plugins, handy: boundaries },
    rules: {
      ...Object.fromEntries(Object.keys(hooks.rules).map((rule) => [rule, 'error'])),
      'handy/boundaries': ['error', { src: path.join(import.meta.dirname, 'web/src') }],
    },
  },
  {
    // Node scripts (and the browser code they hand to Playwright), outside the TypeScript project.
    files: scripts,
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
);
