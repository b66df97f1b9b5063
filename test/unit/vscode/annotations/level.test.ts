import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { annotationLevel } from '../../../../src/vscode/annotations/level';

describe('annotation level settings', () => {
  it('reads the three levels, and the true/false of the older boolean settings', () => {
    assert.equal(annotationLevel('full'), 'full');
    assert.equal(annotationLevel('quiet'), 'quiet');
    assert.equal(annotationLevel('off'), 'off');
    assert.equal(annotationLevel(true), 'full');
    assert.equal(annotationLevel(false), 'off');
  });

  it('falls back to full for a missing or unknown value', () => {
    assert.equal(annotationLevel(undefined), 'full');
    assert.equal(annotationLevel('loud'), 'full');
  });
});
