// The layer rule of docs/ARCHITECTURE.md, enforced mechanically (test/unit/layers.test.ts checks the same).
import tseslint from 'typescript-eslint';

const nodeBuiltins = ['node:*', 'fs', 'fs/*', 'child_process', 'net', 'http', 'https', 'os', 'path', 'worker_threads'];
const restrict = (patterns, message) => ({
  'no-restricted-imports': ['error', { patterns: patterns.map((group) => ({ group: [group], message })) }],
});

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'out/**',
      'node_modules/**',
      'test-results/**',
      '.vscode-test/**',
      'demo/build/**',
      'test/fixtures/analysis/**',
      // Test projects the multilingual log corpus runs in containers (scripts/make-multilingual-corpus.sh).
      'test/fixtures/logs/multilingual/projects/**',
    ],
  },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: restrict(
      ['vscode', ...nodeBuiltins, '**/infra/**', '**/app/**', '**/vscode/**', '**/cli/**'],
      'src/core is pure: data in, data out (docs/ARCHITECTURE.md)',
    ),
  },
  {
    files: ['src/protocol/**/*.ts'],
    rules: restrict(
      ['vscode', ...nodeBuiltins, '**/core/**', '**/infra/**', '**/app/**', '**/vscode/**', '**/cli/**'],
      'src/protocol holds schemas and types only',
    ),
  },
  {
    files: ['src/infra/**/*.ts'],
    rules: restrict(
      ['vscode', '**/app/**', '**/vscode/**', '**/cli/**'],
      "src/infra never imports 'vscode' or a use case",
    ),
  },
  {
    files: ['src/app/**/*.ts'],
    rules: restrict(
      ['vscode', '**/vscode/**', '**/cli/**'],
      'src/app holds the use cases both front ends call: it never imports a front end (docs/ARCHITECTURE.md)',
    ),
  },
  {
    files: ['src/cli/**/*.ts'],
    rules: restrict(['vscode', '**/vscode/**'], "the CLI never imports 'vscode'"),
  },
  {
    files: ['src/vscode/**/*.ts', 'src/extension.ts'],
    rules: restrict(['**/cli/**'], 'the editor calls use cases (src/app), never the CLI'),
  },
  {
    files: ['webview-ui/**/*.ts'],
    rules: restrict(
      [
        'vscode',
        ...nodeBuiltins,
        '**/src/core/**',
        '**/src/infra/**',
        '**/src/app/**',
        '**/src/vscode/**',
        '**/src/cli/**',
      ],
      'webview code imports only src/protocol',
    ),
  },
);
