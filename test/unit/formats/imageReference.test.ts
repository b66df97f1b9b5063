import { test } from 'node:test';
import assert from 'node:assert/strict';
import { imageReferenceProblem } from '../../../src/core/formats/imageReference';

test('image names the engine accepts pass', () => {
  for (const name of [
    'chainlens/base:bookworm',
    'swebench/sweb.eval.x86_64.django_1776_django-11099:latest',
    'ubuntu',
    'localhost:5000/team/image:v1.2',
    'ghcr.io/owner/repo@sha256:' + 'a'.repeat(64),
    'registry.example.com:443/a/b/c:tag_1.0-rc',
    'sha256:' + 'b'.repeat(64),
    'a__b--c.d',
  ])
    assert.equal(imageReferenceProblem(name), null, name);
});

test('names the engine would refuse are refused, saying why', () => {
  for (const name of [
    'Bad Image!',
    'owner/Repo',
    'image:',
    ':tag',
    'a/-b',
    'a//b',
    'image:tag with space',
    'image\nname',
    'image@sha256:short',
    `x/${'a'.repeat(256)}`,
  ])
    assert.notEqual(imageReferenceProblem(name), null, JSON.stringify(name));
});
