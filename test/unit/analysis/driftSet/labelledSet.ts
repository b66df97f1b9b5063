// A labelled set for the drift heuristics (src/core/analysis/drift.ts): pairs of a step's version
// and gold's version of real code, each changed symbol labelled by a person with the taxonomy's
// labels it deserves (none: no drift). Three sources:
//   - the demo chain's agent patches against their gold patches (demo/steps/<k>), each analysed at
//     the step's Oracle start (base + the gold patches before it), labelled from demo/README.md;
//   - equivalent rewrites of the gold patches: the same behaviour written another way (checks in
//     another order, a sign instead of a flag, statements split or joined), labelled no drift;
//   - the SWE-agent (GPT-4) patch of pydicom__pydicom-1458 against its gold patch
//     (test/fixtures/patches/pydicom-1458).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { applyFilePatch } from '../../../../src/core/patch/apply';
import { parsePatch } from '../../../../src/core/patch/parse';
import { filePath } from '../../../../src/core/patch/types';
import type { DriftLabel } from '../../../../src/protocol/labels';

const repo = join(__dirname, '../../../..');

export interface LabelledCase {
  readonly name: string;
  readonly source: 'demo agent' | 'gold rewrite' | 'SWE-bench agent';
  /** Per file: the text before the step (and gold), the step's version, gold's version. */
  readonly files: readonly { path: string; base: string; step: string; gold: string }[];
  /** Per changed symbol (as the analysis names it): the labels a person gives it; [] = no drift. */
  readonly expected: Readonly<Record<string, readonly DriftLabel[]>>;
}

function demoFile(path: string): string {
  return readFileSync(join(repo, 'demo', 'repo-base', path), 'utf8');
}

function demoPatch(step: number, name: 'gold' | 'predicted'): string {
  return readFileSync(join(repo, 'demo', 'steps', String(step), `${name}.patch`), 'utf8');
}

function apply(text: string, patch: string, path: string): string {
  const file = parsePatch(patch, 'patch').files.find((f) => filePath(f) === path);
  return file ? applyFilePatch(text, file) : text;
}

/** A file at the Oracle start of demo step k: base + gold patches 1..k-1. */
function oracleStart(step: number, path: string): string {
  let text = demoFile(path);
  for (let k = 1; k < step; k++) text = apply(text, demoPatch(k, 'gold'), path);
  return text;
}

function demoCase(
  step: number,
  paths: string[],
  expected: LabelledCase['expected'],
  rewrite?: { name: string; edits: [string, string][] },
): LabelledCase {
  const files = paths.map((path) => {
    const base = oracleStart(step, path);
    const gold = apply(base, demoPatch(step, 'gold'), path);
    let step_: string;
    if (rewrite) {
      step_ = gold;
      for (const [from, to] of rewrite.edits) {
        if (!step_.includes(from) && gold.includes(from)) throw new Error(`${rewrite.name}: edit applied twice`);
        if (step_.includes(from)) step_ = step_.replace(from, to);
      }
    } else step_ = apply(base, demoPatch(step, 'predicted'), path);
    return { path, base, step: step_, gold };
  });
  if (rewrite) {
    const all = files.map((f) => f.gold).join('\n');
    for (const [from] of rewrite.edits)
      if (!all.includes(from)) throw new Error(`${rewrite.name}: "${from}" not in gold`);
  }
  return {
    name: rewrite ? `demo step ${step}, ${rewrite.name}` : `demo step ${step}, the demo agent's patch`,
    source: rewrite ? 'gold rewrite' : 'demo agent',
    files,
    expected,
  };
}

export function labelledSet(): LabelledCase[] {
  const PARSE = 'invoicekit/parse.py';
  const IMPORTER = 'invoicekit/importer.py';
  const pydicom = join(repo, 'test', 'fixtures', 'patches', 'pydicom-1458');
  const NUMPY = 'pydicom/pixel_data_handlers/numpy_handler.py';
  const numpyBase = readFileSync(join(pydicom, 'numpy_handler.py'), 'utf8');
  return [
    // Accepts a leading minus only; gold also reads accounting-style "(12.00)".
    demoCase(1, [PARSE], { parse_amount: ['INPUT GATING'] }),
    // "A correct fix (a different algorithm from gold)", demo/README.md; gold's helper is undershoot, not drift.
    demoCase(2, [PARSE], { _to_decimal: ['ALGORITHM'] }),
    // Correct, another way (csv.Sniffer; the number rewritten before _to_decimal); fewer functions than gold.
    demoCase(3, [PARSE, IMPORTER], { parse_amount: ['ALGORITHM'], load_invoice_csv: ['ALGORITHM'] }),
    demoCase(
      1,
      [PARSE],
      { parse_amount: [] },
      {
        name: 'the two checks in the other order and a sign instead of a flag',
        edits: [
          [
            `    negative = False
    if cleaned.startswith("-"):
        negative, cleaned = True, cleaned[1:].lstrip()
    elif cleaned.startswith("(") and cleaned.endswith(")"):
        # Accounting style for credits, as format_money(accounting=True) writes them.
        negative, cleaned = True, cleaned[1:-1].strip()`,
            `    sign = 1
    if cleaned.startswith("(") and cleaned.endswith(")"):
        # Accounting style for credits, as format_money(accounting=True) writes them.
        sign, cleaned = -1, cleaned[1:-1].strip()
    elif cleaned.startswith("-"):
        sign, cleaned = -1, cleaned[1:].lstrip()`,
          ],
          ['    return Money(-amount if negative else amount, currency)', '    return Money(sign * amount, currency)'],
        ],
      },
    ),
    demoCase(
      1,
      [PARSE],
      { parse_amount: [] },
      {
        name: 'one statement per assignment',
        edits: [
          [
            `        negative, cleaned = True, cleaned[1:].lstrip()`,
            `        negative = True
        cleaned = cleaned[1:].lstrip()`,
          ],
          [
            `        negative, cleaned = True, cleaned[1:-1].strip()`,
            `        negative = True
        cleaned = cleaned[1:-1].strip()`,
          ],
        ],
      },
    ),
    demoCase(
      2,
      [PARSE],
      { _to_decimal: [], _decimal_mark: [] },
      {
        name: 'the branches of _decimal_mark in another order, and the grouping chosen first',
        edits: [
          [
            `    if "." in number and "," in number:
        return number[max(number.rfind("."), number.rfind(","))]
    if number.count(".") == 1:
        return "."`,
            `    if "," not in number and number.count(".") == 1:
        return "."
    if "." in number and "," in number:
        return number[max(number.rfind("."), number.rfind(","))]`,
          ],
          [
            `    mark = _decimal_mark(number)
    if mark is None:
        whole, fraction = number, ""
        grouping = "." if "." in number else ","
    else:
        whole, _, fraction = number.rpartition(mark)
        grouping = "." if mark == "," else ","`,
            `    mark = _decimal_mark(number)
    if mark is not None:
        whole, _, fraction = number.rpartition(mark)
        grouping = "." if mark == "," else ","
    else:
        whole, fraction = number, ""
        grouping = "." if "." in number else ","`,
          ],
        ],
      },
    ),
    demoCase(
      3,
      [PARSE, IMPORTER],
      {
        load_invoice_csv: [],
        _delimiter: [],
        _tax_rate: [],
        _to_decimal: [],
        parse_amount: [],
        parse_percent: [],
        parse_decimal: [],
      },
      {
        name: 'the decimal mark chosen the other way round',
        edits: [
          [
            '    decimal_mark = "," if delimiter == ";" else None',
            '    decimal_mark = None if delimiter != ";" else ","',
          ],
        ],
      },
    ),
    {
      name: 'pydicom__pydicom-1458, SWE-agent (GPT-4) against gold',
      source: 'SWE-bench agent',
      files: [
        {
          path: NUMPY,
          base: numpyBase,
          step: apply(numpyBase, readFileSync(join(pydicom, 'agent.diff'), 'utf8'), NUMPY),
          gold: apply(numpyBase, readFileSync(join(pydicom, 'gold.diff'), 'utf8'), NUMPY),
        },
      ],
      // Gold requires BitsStored and checks PlanarConfiguration only for colour data; the agent does neither.
      expected: { get_pixeldata: ['INPUT GATING'] },
    },
  ];
}
