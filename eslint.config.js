// Flat config: typescript-eslint's recommended rules without type information, so lint stays fast.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// The boundaries of docs/reference/design.md, enforced: the local API (src/server) and the reconciler (src/core,
// src/kinds, src/config, src/client, src/cli) never import each other, src/rules (shared
// by both) imports neither, and src/core names no kind. The one seam is the CLI starting the server
// (`zoneplan serve` and the embedded default target), by a dynamic import in exactly two files.
// Relative specifiers only: the tree has no path aliases. `(\.\./)+` climbs any depth; the folder
// must come right after the climb, so `../store/core.js` inside src/server is not `src/core`.
const RECONCILER = ['core', 'kinds', 'config', 'client', 'cli'];
const EMBEDDED_SERVER_STARTERS = ['src/cli/serve.ts', 'src/cli/pipeline/target.ts'];

/** A no-restricted-imports pattern refusing `../<folder>/...` for each folder, with the reason. */
function forbid(folders, message) {
  return { regex: `^(\\.\\./)+(${folders.join('|')})(/|$)`, message };
}
/** The same for dynamic `import('../<folder>/...')`, which no-restricted-imports does not see. */
function forbidDynamic(folders, message) {
  // esquery regexes cannot hold a slash: \x2F is one
  return {
    selector: `ImportExpression[source.value=/^(\\.\\.\\x2F)+(${folders.join('|')})(\\x2F|$)/]`,
    message,
  };
}
function boundary(files, folders, message, ignores = []) {
  return {
    files,
    ignores,
    rules: {
      'no-restricted-imports': ['error', { patterns: [forbid(folders, message)] }],
      'no-restricted-syntax': ['error', forbidDynamic(folders, message)],
    },
  };
}
const SERVER_APART =
  'src/server and the reconciler never import each other (shared rules live in src/rules).';

const boundaries = [
  boundary(['src/server/**'], RECONCILER, SERVER_APART),
  boundary(
    ['src/kinds/**', 'src/config/**', 'src/client/**', 'src/cli/**'],
    ['server'],
    SERVER_APART,
    EMBEDDED_SERVER_STARTERS,
  ),
  boundary(
    ['src/core/**'],
    ['server', 'kinds'],
    'src/core never names a kind (kinds register through src/kinds/index.ts), nor imports src/server.',
  ),
  boundary(
    ['src/rules/**'],
    ['server', ...RECONCILER],
    'src/rules is shared by the reconciler and the local API, so it imports neither.',
  ),
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.zoneplan/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        setImmediate: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        TextEncoder: 'readonly',
        TextDecoder: 'readonly',
        performance: 'readonly',
        structuredClone: 'readonly',
        fetch: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
      'no-control-regex': 'off',
    },
  },
  ...boundaries,
);
