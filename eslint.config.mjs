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
      ['vscode', ...nodeBuiltins, '**/infra/**', '**/vscode/**', '**/cli/**'],
      'src/core is pure: data in, data out (docs/ARCHITECTURE.md)',
    ),
  },
  {
    files: ['src/protocol/**/*.ts'],
    rules: restrict(
      ['vscode', ...nodeBuiltins, '**/core/**', '**/infra/**', '**/vscode/**', '**/cli/**'],
      'src/protocol holds schemas and types only',
    ),
  },
  {
    files: ['src/infra/**/*.ts'],
    rules: restrict(['vscode', '**/vscode/**', '**/cli/**'], "src/infra never imports 'vscode'"),
  },
  {
    files: ['src/cli/**/*.ts'],
    rules: restrict(['vscode', '**/vscode/**'], "the CLI never imports 'vscode'"),
  },
  {
    files: ['webview-ui/**/*.ts'],
    rules: restrict(
      ['vscode', ...nodeBuiltins, '**/src/core/**', '**/src/infra/**', '**/src/vscode/**', '**/src/cli/**'],
      'webview code imports only src/protocol',
    ),
  },
);
