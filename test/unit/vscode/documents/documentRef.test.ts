import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { decodeDocumentPath, encodeDocumentPath, type DocumentRef } from '../../../../src/vscode/documents/documentRef';

describe('the chainlens: document codec', () => {
  const refs: DocumentRef[] = [
    { kind: 'version', runId: 'r-1a', step: 2, version: 'gold', path: 'pkg/parse.py' },
    { kind: 'version', runId: 'r-1a', step: 2, version: 'submitted', path: 'pkg/parse.py', titled: true },
    { kind: 'version', runId: 'r-1a', step: 1, version: 'working', path: 'a b/c (d).py', titled: true },
    { kind: 'version', runId: 'r-1a', step: 1, version: 'base', path: 'x.py' },
    { kind: 'patch', runId: 'r-1a', step: 3, side: 'yours' },
    { kind: 'patch', runId: 'r-1a', step: 3, side: 'gold' },
    { kind: 'trajectory', panel: 'p7', path: 'step-4/src/app.ts' },
  ];

  it('decodes what it encodes, for every kind', () => {
    for (const ref of refs) assert.deepEqual(decodeDocumentPath(encodeDocumentPath(ref)), ref);
  });

  it('titles a version for its tab: the version name, or "step k" for the submitted one', () => {
    assert.equal(encodeDocumentPath(refs[1]), '/version/r-1a/step-2/submitted/pkg/parse.py (step 2)');
    assert.equal(encodeDocumentPath(refs[0]), '/version/r-1a/step-2/gold/pkg/parse.py');
    assert.equal(encodeDocumentPath(refs[4]), '/patch/r-1a/step-3/yours.diff');
  });

  it('names no document for a path of another layout', () => {
    for (const path of [
      '/version/r1/step-x/gold/a.py',
      '/version/r1/step-1/future/a.py',
      '/patch/r1/step-1/test.diff',
      '/r1/step-1/gold/a.py',
      '/trajectory/p1',
    ])
      assert.equal(decodeDocumentPath(path), undefined, path);
  });
});
