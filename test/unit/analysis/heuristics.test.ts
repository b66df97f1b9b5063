import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeOne, labelsOf, suggestion } from './helpers';

// Each case: a base function, the step's version and gold's. Drift compares step against gold.
const BASE = `import logging
logger = logging.getLogger(__name__)


def load(cfg, key):
    value = cfg[key]
    return value


def other(x):
    return x + 1
`;

const withLoad = (body: string) => BASE.replace('    value = cfg[key]\n    return value\n', body);

test('INPUT GATING: gold adds a raise the step lacks, with evidence from gold', async () => {
  const gold = withLoad(
    '    if key not in cfg:\n        raise KeyError(key)\n    value = cfg[key]\n    return value\n',
  );
  const step = withLoad('    value = cfg[key]  # no check\n    return value\n');
  const a = await analyzeOne('m.py', BASE, step, gold);
  const s = suggestion(a, 'INPUT GATING');
  assert.ok(s, `suggested: ${labelsOf(a)}`);
  assert.equal(s.iec, true);
  assert.equal(s.group, 'B');
  assert.ok(s.evidence.some((e) => e.side === 'gold' && e.text === 'raise KeyError(key)'));
  assert.match(s.reason, /early exit\(s\) in gold that the step lacks/);
});

test('INPUT GATING: step adds an early return gold does not have', async () => {
  const gold = withLoad('    value = cfg[key]\n    return value or 0\n');
  const step = withLoad('    if not cfg:\n        return None\n    value = cfg[key]\n    return value or 0\n');
  const a = await analyzeOne('m.py', BASE, step, gold);
  const s = suggestion(a, 'INPUT GATING');
  assert.ok(s);
  assert.ok(s.evidence.some((e) => e.side === 'step' && e.text === 'return None'));
});

test('INPUT GATING not suggested when both add the same check with other wording', async () => {
  const gold = withLoad(
    '    if key not in cfg:\n        raise KeyError(f"missing {key}")\n    value = cfg[key]\n    return value\n',
  );
  const step = withLoad(
    '    if key not in cfg:\n        raise KeyError("no such key: " + key)\n    value = cfg[key]\n    return value\n',
  );
  const a = await analyzeOne('m.py', BASE, step, gold);
  assert.deepEqual(
    labelsOf(a).filter((l) => l === 'INPUT GATING'),
    [],
  );
});

test('SILENT FALLBACK: dict.get with a default, `or` default and int() coercion in the step only', async () => {
  const gold = withLoad('    value = cfg[key]\n    return value\n    \n');
  for (const body of [
    '    value = cfg.get(key, 0)\n    return value\n',
    '    value = cfg[key] or []\n    return value\n',
    '    value = int(cfg[key])\n    return value\n',
  ]) {
    const a = await analyzeOne('m.py', BASE, withLoad(body), gold);
    const s = suggestion(a, 'SILENT FALLBACK');
    assert.ok(s, `for ${body.trim()}: ${labelsOf(a)}`);
    assert.equal(s.iec, true);
    assert.equal(s.evidence[0].side, 'step');
  }
});

test('SILENT FALLBACK not suggested for a plain .get(key) or when gold falls back the same way', async () => {
  const a = await analyzeOne(
    'm.py',
    BASE,
    withLoad('    value = cfg.get(key)\n    return value\n'),
    withLoad('    value = cfg[key]\n    return value\n'),
  );
  assert.equal(suggestion(a, 'SILENT FALLBACK'), undefined);
  const same = withLoad('    value = cfg.get(key, 0)\n    return value\n');
  const b = await analyzeOne('m.py', BASE, same.replace('cfg.get(key, 0)', 'cfg.get(key,0)'), same);
  assert.equal(suggestion(b, 'SILENT FALLBACK'), undefined);
});

test('ERROR HANDLING: a broader except clause than gold', async () => {
  const body = (exc: string) =>
    `    try:\n        value = cfg[key]\n    except ${exc}:\n        value = None\n    return value\n`;
  const a = await analyzeOne('m.py', BASE, withLoad(body('Exception')), withLoad(body('KeyError')));
  const s = suggestion(a, 'ERROR HANDLING');
  assert.ok(s, `${labelsOf(a)}`);
  assert.ok(s.evidence.some((e) => e.side === 'step' && e.text === 'except Exception:'));
  assert.ok(s.evidence.some((e) => e.side === 'gold' && e.text === 'except KeyError:'));
});

test('ERROR HANDLING: a different exception type raised', async () => {
  const a = await analyzeOne(
    'm.py',
    BASE,
    withLoad('    raise ValueError(key)\n'),
    withLoad('    raise KeyError(key)\n'),
  );
  assert.ok(suggestion(a, 'ERROR HANDLING'));
});

test('ERROR HANDLING not suggested when only the handler body layout differs', async () => {
  const a = await analyzeOne(
    'm.py',
    BASE,
    withLoad(
      '    try:\n        value = cfg[key]\n    except (KeyError, IndexError):\n        value = None\n    return value\n',
    ),
    withLoad(
      '    try:\n        value = cfg[key]\n    except (KeyError,IndexError):\n        value = None\n\n    return value\n',
    ),
  );
  assert.equal(suggestion(a, 'ERROR HANDLING'), undefined);
});

test('RETURN SHAPE: a tuple where gold returns one value', async () => {
  const a = await analyzeOne(
    'm.py',
    BASE,
    withLoad('    value = cfg[key]\n    return value, key\n'),
    withLoad('    value = cfg[key]\n    return value\n'),
  );
  const s = suggestion(a, 'RETURN SHAPE');
  assert.ok(s);
  assert.match(s.reason, /tuple\/2/);
  assert.equal(s.iec, false);
});

test('RETURN SHAPE not suggested when only the returned name differs', async () => {
  const a = await analyzeOne(
    'm.py',
    BASE,
    withLoad('    v = cfg[key]\n    return v\n'),
    withLoad('    value = cfg[key]\n    return value\n'),
  );
  assert.equal(suggestion(a, 'RETURN SHAPE'), undefined);
});

test('EXTERNAL EFFECTS: print, logging, argument writes and globals in the step only', async () => {
  const gold = withLoad('    value = cfg[key]\n    return value\n  \n');
  for (const line of [
    '    print(value)\n',
    '    logger.warning("loaded %s", key)\n',
    '    cfg["seen"] = True\n',
    '    cfg.setdefault("n", 0)\n',
    '    global CACHE\n    CACHE = value\n',
  ]) {
    const a = await analyzeOne('m.py', BASE, withLoad(`    value = cfg[key]\n${line}    return value\n`), gold);
    assert.ok(suggestion(a, 'EXTERNAL EFFECTS'), `for ${line.trim()}: ${labelsOf(a)}`);
  }
});

test('EXTERNAL EFFECTS not suggested for local variables', async () => {
  const a = await analyzeOne(
    'm.py',
    BASE,
    withLoad('    value = cfg[key]\n    result = [value]\n    result.append(1)\n    return value\n'),
    withLoad('    value = cfg[key]\n    return value\n  \n'),
  );
  assert.equal(suggestion(a, 'EXTERNAL EFFECTS'), undefined);
});

test('INCOMPLETE: the step leaves a stub where gold implements', async () => {
  for (const body of [
    '    pass\n',
    '    raise NotImplementedError\n',
    '    """Load."""\n',
    '    # TODO: load the value\n    return None\n',
  ]) {
    const a = await analyzeOne(
      'm.py',
      BASE,
      withLoad(body),
      withLoad('    value = cfg[key].strip()\n    return value\n'),
    );
    const s = suggestion(a, 'INCOMPLETE');
    assert.ok(s, `for ${body.trim()}: ${labelsOf(a)}`);
    assert.equal(s.group, 'D');
    assert.equal(s.primary, true);
  }
});

test('INCOMPLETE not suggested for a real implementation', async () => {
  const a = await analyzeOne(
    'm.py',
    BASE,
    withLoad('    value = cfg[key].strip()\n    return value\n'),
    withLoad('    value = cfg[key].lower()\n    return value\n'),
  );
  assert.equal(suggestion(a, 'INCOMPLETE'), undefined);
});

test('EQUIVALENT: the step differs from gold only in comments and layout', async () => {
  const gold = withLoad('    value = cfg[key].strip()\n    return value\n');
  const step = withLoad('    # strip whitespace\n    value = cfg[ key ].strip( )\n    return value\n');
  const a = await analyzeOne('m.py', BASE, step, gold);
  assert.deepEqual(labelsOf(a, 'load'), ['EQUIVALENT']);
  assert.match(a.drift[0].reason, /only in comments/);
});

test('EQUIVALENT not suggested when a literal differs', async () => {
  const a = await analyzeOne(
    'm.py',
    BASE,
    withLoad('    value = cfg[key].strip("x")\n    return value\n'),
    withLoad('    value = cfg[key].strip("y")\n    return value\n'),
  );
  assert.equal(suggestion(a, 'EQUIVALENT'), undefined);
});

test('EXTRA EDITS: the step also edits a function gold leaves alone', async () => {
  const gold = withLoad('    value = cfg[key].strip()\n    return value\n');
  const step = gold.replace('return x + 1', 'return x + 2');
  const a = await analyzeOne('m.py', BASE, step, gold);
  const s = a.drift.find((d) => d.symbol === 'other');
  assert.equal(s?.label, 'EXTRA EDITS');
  assert.equal(s?.group, 'C');
  assert.ok(s?.evidence.some((e) => e.side === 'step' && e.text.includes('x + 2')));
  assert.deepEqual(
    a.symbols.overshoot.map((o) => o.symbol),
    ['other'],
  );
});

test('EXTRA EDITS not suggested when the step edits only the target', async () => {
  const gold = withLoad('    value = cfg[key].strip()\n    return value\n');
  const a = await analyzeOne('m.py', BASE, gold, gold);
  assert.equal(suggestion(a, 'EXTRA EDITS'), undefined);
  assert.deepEqual(labelsOf(a), ['EQUIVALENT']);
});
