// A tiny real git repository and a 3-step ChainSWE chain over it, built in a temp dir with real
// git so every patch is genuine `git diff` output. For engine tests that need no container.
import './dataDir';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
  GIT_AUTHOR_DATE: '2024-01-01T00:00:00Z',
  GIT_COMMITTER_DATE: '2024-01-01T00:00:00Z',
};

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: GIT_ENV, encoding: 'utf8' });
}

export function writeFiles(root: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
}

const BASE: Record<string, string> = {
  'calc/__init__.py': '',
  'calc/ops.py': 'def add(a, b):\n    return a + b\n\n\ndef div(a, b):\n    return a / b\n',
  'tests/test_ops.py':
    'from calc.ops import add, div\n\n\ndef test_add():\n    assert add(1, 2) == 3\n\n\ndef test_div():\n    assert div(6, 3) == 2\n',
  'README.md': '# calc\n',
};

interface StepEdit {
  gold: Record<string, string>;
  tests: Record<string, string>;
}

const STEPS: StepEdit[] = [
  {
    gold: {
      'calc/ops.py':
        'def add(a, b):\n    return a + b\n\n\ndef div(a, b):\n    if b == 0:\n        raise ValueError("division by zero")\n    return a / b\n',
    },
    tests: {
      'tests/test_ops.py':
        BASE['tests/test_ops.py'] +
        '\n\ndef test_div_zero():\n    import pytest\n    with pytest.raises(ValueError):\n        div(1, 0)\n',
    },
  },
  {
    gold: {
      'calc/ops.py':
        'def add(a, b):\n    return float(a) + float(b)\n\n\ndef div(a, b):\n    if b == 0:\n        raise ValueError("division by zero")\n    return float(a) / float(b)\n',
    },
    tests: {
      'tests/test_strings.py':
        'from calc.ops import add, div\n\n\ndef test_add_strings():\n    assert add("1", "2") == 3.0\n\n\ndef test_div_strings():\n    assert div("6", "3") == 2.0\n',
    },
  },
  {
    gold: { 'calc/fmt.py': 'from calc.ops import div\n\n\ndef ratio(a, b):\n    return f"{div(a, b):.2f}"\n' },
    tests: {
      'tests/test_fmt.py': 'from calc.fmt import ratio\n\n\ndef test_ratio():\n    assert ratio(1, 3) == "0.33"\n',
    },
  },
];

export interface TinyChain {
  root: string;
  repo: string;
  baseCommit: string;
  chainFile: string;
  /** The raw ChainSWE object written to chainFile. */
  raw: { bug_fixes: { patch: string; test_patch: string; swebench_instance_id: string }[] } & Record<string, unknown>;
  cleanup(): void;
}

export function makeTinyChain(): TinyChain {
  const root = mkdtempSync(join(tmpdir(), 'chainlens-tiny-'));
  const repo = join(root, 'upstream');
  mkdirSync(repo);
  git(repo, 'init', '-q', '-b', 'main');
  writeFiles(repo, BASE);
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'base');
  const baseCommit = git(repo, 'rev-parse', 'HEAD').trim();

  // Author each step's gold and test patch on a scratch branch, one on top of the other.
  const scratch = join(root, 'scratch');
  git(root, 'clone', '-q', repo, scratch);
  const bugFixes = STEPS.map((step, i) => {
    writeFiles(scratch, step.gold);
    git(scratch, 'add', '-A');
    const patch = git(scratch, 'diff', '--cached');
    git(scratch, 'commit', '-q', '-m', `gold ${i + 1}`);
    writeFiles(scratch, step.tests);
    git(scratch, 'add', '-A');
    const testPatch = git(scratch, 'diff', '--cached');
    git(scratch, 'commit', '-q', '-m', `tests ${i + 1}`);
    return {
      order: i + 1,
      swebench_instance_id: `tiny__calc-${i + 1}`,
      problem_statement: `Bug ${i + 1} of the tiny chain`,
      patch,
      test_patch: testPatch,
      FAIL_TO_PASS:
        i === 1
          ? JSON.stringify(['tests/test_strings.py::test_add_strings'])
          : [`tests/test_${i === 0 ? 'ops' : 'fmt'}.py::test_${i === 0 ? 'div_zero' : 'ratio'}`],
      PASS_TO_PASS: ['tests/test_ops.py::test_add'],
      test_cmds: 'pytest -rA tests',
    };
  });
  rmSync(scratch, { recursive: true, force: true });
  const raw = {
    continuous_id: 'tiny_calc_chain',
    repo: 'tiny/calc',
    base_commit: baseCommit,
    source: 'test fixture',
    docker_image: 'chainlens/base:bookworm',
    swebench_instance_ids: bugFixes.map((b) => b.swebench_instance_id),
    bug_fixes: bugFixes,
  };
  const chainFile = join(root, 'chain.json');
  writeFileSync(chainFile, JSON.stringify(raw, null, 2));
  return { root, repo, baseCommit, chainFile, raw, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}
