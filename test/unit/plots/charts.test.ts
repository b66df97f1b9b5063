import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CHART_CSS, barChart, boxChart, lineChart, niceTicks } from '../../../src/core/plots';
import { niceDomain } from '../../../src/core/plots/scale';

/** Tags open and close in order, and no raw '<' or '&' sits in text: the markup parses as XML. */
function assertWellFormed(svg: string): void {
  const stack: string[] = [];
  for (const m of svg.matchAll(
    /<(\/?)([a-zA-Z][\w-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>|<|&(?!#\d+;|amp;|lt;|gt;|quot;)/g,
  )) {
    if (m[2] === undefined)
      assert.fail(`stray ${JSON.stringify(m[0])} at ${m.index}: ${svg.slice(m.index! - 40, m.index! + 40)}`);
    if (m[4]) continue;
    if (m[1]) assert.equal(stack.pop(), m[2], `closing </${m[2]}> at ${m.index}`);
    else stack.push(m[2]);
  }
  assert.deepEqual(stack, []);
}

test('ticks fall on 1, 2 or 5 times a power of ten and cover the domain', () => {
  assert.deepEqual(niceTicks(0, 1), [0, 0.2, 0.4, 0.6, 0.8, 1]);
  assert.deepEqual(niceTicks(3, 47), [10, 20, 30, 40]);
  assert.deepEqual(niceTicks(0, 7, 7), [0, 1, 2, 3, 4, 5, 6, 7]);
});

test('an axis reaches past its largest value: the top tick is at or above it', () => {
  // 0.62 s of active time in minutes: ticks 0, 0.005, 0.01 stop under it without the widening
  assert.deepEqual(niceDomain([0, 0.0104]), [0, 0.015]);
  assert.deepEqual(niceDomain([0, 1]), [0, 1], 'a domain on whole steps stays');
  const svg = boxChart({
    title: 't',
    yLabel: 'minutes',
    boxes: [{ label: 'AH', min: 0.0104, q1: 0.0104, median: 0.0104, q3: 0.0104, max: 0.0104, n: 1 }],
  });
  assert.match(svg, />0\.015</, 'a tick above the one value');
});

test('a line chart of resolve rate by position: one path per series, whiskers for intervals, keys for drill-down', () => {
  const svg = lineChart({
    title: 'Resolve rate by position <Seq & Oracle>',
    yLabel: 'resolved',
    xLabel: 'position',
    percent: true,
    integerX: true,
    series: [
      {
        name: 'gpt-4 "oracle"',
        points: [
          { x: 1, y: 0.5, low: 0.2, high: 0.8, key: 'oracle:1' },
          { x: 2, y: 0.4, low: 0.1, high: 0.7, key: 'oracle:2' },
        ],
      },
      {
        name: 'gpt-4 seq',
        dashed: true,
        points: [
          { x: 1, y: 0.5 },
          { x: 2, y: 0.1 },
        ],
      },
    ],
  });
  assertWellFormed(svg);
  assert.equal((svg.match(/class="cl-line /g) ?? []).length, 2);
  assert.equal((svg.match(/class="cl-whisker /g) ?? []).length, 2, 'only the series with intervals gets whiskers');
  assert.match(svg, /data-key="oracle:2"/);
  assert.match(svg, /&#60;Seq &#38; Oracle&#62;/, 'labels from data are escaped');
  assert.match(svg, />100%</);
  assert.match(svg, /cl-dashed/);
  assert.doesNotMatch(svg, /style=/, 'no inline styles: webview CSPs block them');
});

test('the first point is plotted left of the second and a higher rate higher up', () => {
  const svg = lineChart({
    title: 't',
    yLabel: 'y',
    percent: true,
    series: [
      {
        name: 's',
        points: [
          { x: 1, y: 0.9 },
          { x: 2, y: 0.1 },
        ],
      },
    ],
  });
  const circles = [...svg.matchAll(/<circle[^>]*cx="([\d.]+)" cy="([\d.]+)"/g)].map((m) => [
    Number(m[1]),
    Number(m[2]),
  ]);
  assert.equal(circles.length, 2);
  assert.ok(circles[0][0] < circles[1][0]);
  assert.ok(circles[0][1] < circles[1][1], 'SVG y grows downwards: 0.9 sits above 0.1');
});

test('reference lines (p0, p*) are drawn with their labels', () => {
  const svg = lineChart({
    title: 'passing tests',
    yLabel: 'tests',
    integerX: true,
    references: [
      { y: 12, label: 'p0 = 12' },
      { y: 40, label: 'p* = 40' },
    ],
    series: [
      {
        name: 'run',
        points: [
          { x: 0, y: 12 },
          { x: 1, y: 20 },
          { x: 2, y: 18 },
        ],
      },
    ],
  });
  assertWellFormed(svg);
  assert.match(svg, /p\* = 40/);
  assert.equal((svg.match(/class="cl-reference"/g) ?? []).length, 2);
});

test('grouped bars skip missing and NaN values and carry intervals', () => {
  const svg = barChart({
    title: 'Resolve rate per condition',
    yLabel: 'resolved',
    percent: true,
    series: ['PR2'],
    groups: [
      { label: 'HA', bars: { PR2: { value: 0.6, low: 0.4, high: 0.8, key: 'HA' } } },
      { label: 'AA', bars: { PR2: { value: NaN } } },
      { label: 'AH', bars: {} },
    ],
  });
  assertWellFormed(svg);
  assert.equal((svg.match(/<rect class="cl-bar/g) ?? []).length, 1);
  assert.match(svg, /data-key="HA"/);
  assert.match(svg, />AA</, 'a group without data keeps its label');
});

test('a box plot draws median, IQR box and whiskers, and says n', () => {
  const svg = boxChart({
    title: 'Active time per step',
    yLabel: 'minutes',
    boxes: [
      { label: 'AH', min: 2, q1: 4, median: 5, q3: 9, max: 20, n: 8 },
      { label: 'HH', min: 0, q1: 0, median: 0, q3: 0, max: 0, n: 0 },
    ],
  });
  assertWellFormed(svg);
  assert.equal((svg.match(/class="cl-median /g) ?? []).length, 1);
  assert.match(svg, /AH \(n=8\)/);
  assert.match(svg, /median 5, IQR 4–9/);
});

test('standalone charts embed their stylesheet; webview charts do not', () => {
  const base = { title: 't', yLabel: 'y', series: [{ name: 's', points: [{ x: 0, y: 1 }] }] };
  assert.match(lineChart({ ...base, standalone: true }), /<style>/);
  assert.doesNotMatch(lineChart(base), /<style>/);
});

test('series with the same values stay apart: Oracle and Seq lines of a source that never lost a step', () => {
  const same = [
    { x: 1, y: 1 },
    { x: 2, y: 0.5 },
    { x: 3, y: 1 },
  ];
  const svg = lineChart({
    title: 't',
    yLabel: 'y',
    percent: true,
    integerX: true,
    series: [
      { name: 'gold oracle', dashed: true, points: same },
      { name: 'gold seq', points: same },
    ],
  });
  const paths = [...svg.matchAll(/<path class="cl-line[^"]*" d="([^"]+)"/g)].map((m) => m[1]);
  assert.equal(paths.length, 2);
  assert.notEqual(paths[0], paths[1], 'two identical series are not drawn on top of each other');
  const xs = (d: string) => [...d.matchAll(/[ML]([\d.]+) /g)].map((m) => Number(m[1]));
  const gap = Math.abs(xs(paths[0])[0] - xs(paths[1])[0]);
  assert.ok(gap >= 3 && gap < (xs(paths[0])[1] - xs(paths[0])[0]) / 4, `a few pixels apart, not a position: ${gap}`);
  const alone = lineChart({ title: 't', yLabel: 'y', series: [{ name: 'one', points: same }] });
  assert.match(alone, /class="cl-chart"/);
});

test('charts shrink to a narrow panel: the stylesheet caps their width', () => {
  assert.match(CHART_CSS, /\.cl-chart \{ max-width: 100%; height: auto;/);
});
