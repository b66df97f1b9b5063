import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jsonPieces } from '../../../src/cli/jsonPieces';

test('jsonPieces joins to exactly what JSON.stringify(value, null, 2) writes', () => {
  const values: unknown[] = [
    {},
    [],
    { a: [], b: {}, c: [{}], d: null },
    { gone: undefined, fn: () => 1, kept: 'x', sym: Symbol('s') },
    [undefined, () => 1, 1, 'two', [3, [4, [5, [6, [7]]]]]],
    { when: new Date(0), nested: { deeper: { deepest: { leaf: { text: 'a\nb\r\n"c"\u2028\u0085' } } } } },
    { n: [NaN, Infinity, -0, 1.5e300], s: 'é 😀' },
    [{ a: { b: { c: { d: { e: [1, { f: 2 }] } } } } }],
  ];
  for (const v of values)
    for (const depth of [0, 1, 2, 4, 8]) assert.equal([...jsonPieces(v, depth)].join(''), JSON.stringify(v, null, 2));
});
