// The Architect's requirement against SWE-CI's Appendix C shape: 1 to 5 items, each with
// location, description, contract and acceptance; each problem named.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { requirementShapeProblems } from '../../../src/core/sweci/requirementShape';

const item = (n: number, omit: string[] = []) =>
  `  <requirement id="${n}">\n` +
  ['location', 'description', 'contract', 'acceptance']
    .filter((f) => !omit.includes(f))
    .map((f) => `    <${f}>${f} of item ${n}</${f}>\n`)
    .join('') +
  '  </requirement>\n';
const doc = (items: string[]) =>
  `<?xml version="1.0"?>\n<!-- by the Architect -->\n<requirements>\n${items.join('')}</requirements>\n`;

test('a document of 1 and of 5 complete items has the shape; CDATA and nested markup count as text', () => {
  assert.deepEqual(requirementShapeProblems(doc([item(1)])), []);
  assert.deepEqual(requirementShapeProblems(doc([1, 2, 3, 4, 5].map((n) => item(n)))), []);
  const cdata =
    '<requirements><requirement><location><![CDATA[src/a.py::f]]></location><description>x <b>y</b></description>' +
    '<contract>f(1) == 2</contract><acceptance>tests/t.py::test_f</acceptance></requirement></requirements>';
  assert.deepEqual(requirementShapeProblems(cdata), []);
});

test('each missing, empty or doubled field is named with its item and line; more than five items is named', () => {
  const problems = requirementShapeProblems(doc([item(1), item(2, ['contract', 'acceptance'])]));
  assert.deepEqual(problems, [
    'item 2 (<requirement>, line 10) has no <contract>',
    'item 2 (<requirement>, line 10) has no <acceptance>',
  ]);
  const empty = requirementShapeProblems(doc([item(1).replace('location of item 1', '  ')]));
  assert.deepEqual(empty, ['item 1 (<requirement>, line 4) has an empty <location>']);
  const doubled = requirementShapeProblems(
    doc([item(1).replace('</acceptance>', '</acceptance><acceptance>b</acceptance>')]),
  );
  assert.deepEqual(doubled, ['item 1 (<requirement>, line 4) has 2 <acceptance> elements; one']);
  assert.deepEqual(requirementShapeProblems(doc([1, 2, 3, 4, 5, 6].map((n) => item(n)))), [
    'it has 6 requirement items; at most 5',
  ]);
});

test('free text, no items, and XML that is not well-formed are refused saying why', () => {
  assert.deepEqual(requirementShapeProblems('1. ops.mul(a, b) returns the product.'), [
    'it is not an XML document (no element in it)',
  ]);
  assert.match(requirementShapeProblems('<requirements><note>hi</note></requirements>')[0], /no requirement item/);
  assert.deepEqual(requirementShapeProblems('<requirements>\n<requirement><location>x</requirement>'), [
    'it is not well-formed XML (line 2: </requirement> closes <location> (line 2))',
  ]);
  assert.deepEqual(requirementShapeProblems('<requirements>\n<requirement>'), [
    'it is not well-formed XML (line 2: <requirement> is never closed)',
  ]);
  assert.match(requirementShapeProblems('<a></a><b></b>')[0], /2 top-level elements/);
});
