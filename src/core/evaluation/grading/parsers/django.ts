import type { GradingProfile } from '../../../../protocol/grading';
import { ParserCrash } from '../parserCrash';
import {
  afterFirst,
  beforeFirst,
  beforeLast,
  pyLstrip,
  pySplit,
  pyStrip,
  PY_DOT,
  PY_ML_END,
  PY_ML_START,
  PY_WHITESPACE,
} from '../pyText';
import { ERROR, FAILED, PASSED, SKIPPED, type StatusMap } from '../statuses';

const PASS_SUFFIXES = [' ... ok', ' ... OK', ' ...  OK'];
const VERSION_TEST = '--version is equivalent to version';
// django__django-7188 prints a migration line and the verdict on one line.
const SITES_MIGRATION = 'Applying sites.0002_alter_domain_unique...test_no_migrations';

const S = `[${PY_WHITESPACE}]`;
/**
 * A test's verdict `ok` pushed onto the next line by a long message Django prints meanwhile
 * (the harness's three patterns, with Python's re.MULTILINE anchors and `.`).
 */
const INTERRUPTED_OK = [
  `${PY_ML_START}(${PY_DOT}*?)${S}\\.\\.\\.${S}Testing against Django installed in ([\\s\\S]*?) silenced\\)\\.\\nok${PY_ML_END}`,
  `${PY_ML_START}(${PY_DOT}*?)${S}\\.\\.\\.${S}Internal Server Error: \\/(${PY_DOT}*)\\/\\nok${PY_ML_END}`,
  `${PY_ML_START}(${PY_DOT}*?)${S}\\.\\.\\.${S}System check identified no issues \\(0 silenced\\)\\nok${PY_ML_END}`,
].map((p) => new RegExp(p, 'gu'));

/**
 * Django's runner at `--verbosity 2` (and unittest's `-v`): `name ... ok|FAIL|ERROR|skipped 'why'`,
 * `FAIL: name` / `ERROR: name` headers (recorded by their first word only), and a verdict that
 * lands on a later line (`ok` alone) credited to the last test that printed ` ... `.
 * The same in both versions; a `FAIL:`/`ERROR:` line of one word crashes the harness's parser.
 */
export function parseDjango(log: string, _profile: GradingProfile): StatusMap {
  const map: StatusMap = new Map();
  let prevTest: string | null = null;
  for (const raw of log.split('\n')) {
    let line = pyStrip(raw);
    if (line.includes(VERSION_TEST)) map.set(VERSION_TEST, PASSED);
    if (line.includes(' ... ')) prevTest = beforeFirst(line, ' ... ');

    for (const suffix of PASS_SUFFIXES) {
      if (!line.endsWith(suffix)) continue;
      if (pyStrip(line).startsWith(SITES_MIGRATION)) line = pyStrip(afterFirst(line, '...'));
      map.set(beforeLast(line, suffix), PASSED);
      break;
    }
    if (line.includes(' ... skipped')) map.set(beforeFirst(line, ' ... skipped'), SKIPPED);
    if (line.endsWith(' ... FAIL')) map.set(beforeFirst(line, ' ... FAIL'), FAILED);
    if (line.startsWith('FAIL:')) map.set(secondWord(line), FAILED);
    if (line.endsWith(' ... ERROR')) map.set(beforeFirst(line, ' ... ERROR'), ERROR);
    if (line.startsWith('ERROR:')) map.set(secondWord(line), ERROR);
    if (pyLstrip(line).startsWith('ok') && prevTest !== null) map.set(prevTest, PASSED);
  }
  for (const pattern of INTERRUPTED_OK) {
    for (const m of log.matchAll(pattern)) map.set(m[1], PASSED);
  }
  return map;
}

function secondWord(line: string): string {
  const words = pySplit(line);
  if (words.length < 2) throw new ParserCrash('django', line);
  return pyStrip(words[1]);
}
