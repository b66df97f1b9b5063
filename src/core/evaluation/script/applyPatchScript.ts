import { APPLY_PATCH_FAILED, APPLY_PATCH_PASS, PATCH_APPLY_COMMANDS } from './markers';
import { shellQuote } from './shell';

/**
 * A bash script that applies one patch with the harness's fallback chain (run_evaluation.py):
 * `git apply --verbose`, `--3way`, `--reject`, then `patch --fuzz=5`. Before each retry the tree
 * goes back to pristine (`git checkout -- . ; git clean -fd`), because a failed attempt (notably
 * --reject) leaves partial changes that make every later attempt fail. If nothing applies, a
 * reverse check accepts a patch that is already in the tree. Prints the harness's
 * APPLY_PATCH_PASS / APPLY_PATCH_FAILED line; exits 0 when applied, 1 when not.
 */
export function applyPatchScript(patchPath: string, repoDir?: string): string {
  const patch = shellQuote(patchPath);
  const cmds = PATCH_APPLY_COMMANDS.map((c) => `'${c}'`).join(' ');
  return (
    [
      '#!/bin/bash',
      'set -uo pipefail',
      ...(repoDir === undefined
        ? []
        : [`cd ${shellQuote(repoDir)} || exit 1`, `git config --global --add safe.directory ${shellQuote(repoDir)}`]),
      'attempt=0',
      `for apply_cmd in ${cmds}; do`,
      '  if [ "$attempt" -gt 0 ]; then git checkout -- . ; git clean -fd ; fi',
      '  attempt=$((attempt + 1))',
      `  echo "+ $apply_cmd ${patch}"`,
      `  if $apply_cmd ${patch}; then`,
      `    echo '${APPLY_PATCH_PASS}'`,
      '    exit 0',
      '  fi',
      '  echo "Failed to apply patch to container: $apply_cmd"',
      'done',
      `if git apply --check --reverse ${patch} >/dev/null 2>&1; then`,
      `  echo '${APPLY_PATCH_PASS}: verified already applied'`,
      '  exit 0',
      'fi',
      `echo '${APPLY_PATCH_FAILED}'`,
      'exit 1',
    ].join('\n') + '\n'
  );
}
