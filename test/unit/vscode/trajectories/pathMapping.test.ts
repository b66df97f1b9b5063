import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toWorkspacePath } from '../../../../src/vscode/trajectories/pathMapping';

describe('toWorkspacePath: agent container paths to workspace-relative ones', () => {
  it('strips the trajectory workspace root (SWE-agent v0 runs at /pydicom__pydicom)', () => {
    assert.equal(
      toWorkspacePath('/pydicom__pydicom/pydicom/pixel_data_handlers/numpy_handler.py', '/pydicom__pydicom'),
      'pydicom/pixel_data_handlers/numpy_handler.py',
    );
    assert.equal(toWorkspacePath('/pydicom__pydicom/', '/pydicom__pydicom/'), null);
  });

  it('knows the SWE-bench harness root /testbed even when the trajectory does not say', () => {
    assert.equal(toWorkspacePath('/testbed/src/marshmallow/fields.py', null), 'src/marshmallow/fields.py');
  });

  it('keeps relative paths, normalised, and refuses ones that climb out of the repository', () => {
    assert.equal(toWorkspacePath('./pydicom//config.py', '/testbed'), 'pydicom/config.py');
    assert.equal(toWorkspacePath('a/../b.py', null), 'b.py');
    assert.equal(toWorkspacePath('../etc/passwd', null), null);
    assert.equal(toWorkspacePath('C:\\repo\\x.py'.replace('C:', ''), '/repo'), 'x.py');
  });

  it('finds a file under an unknown root by what exists in the workspace', () => {
    const present = new Set(['pkg/mod.py']);
    assert.equal(
      toWorkspacePath('/home/agent/work/pkg/mod.py', '/elsewhere', (p) => present.has(p)),
      'pkg/mod.py',
    );
    assert.equal(
      toWorkspacePath('/tmp/scratch.py', null, (p) => present.has(p)),
      null,
    );
    assert.equal(toWorkspacePath('/tmp/scratch.py', null), null);
  });
});
