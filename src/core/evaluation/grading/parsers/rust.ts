import { PY_NS, PY_S, PY_WORD, pyStrip } from '../pyText';
import { FAILED, PASSED, type StatusMap } from '../statuses';

const RESULT = new RegExp(`^test${PY_S}+(${PY_NS}+)${PY_S}+\\.\\.\\.${PY_S}+(${PY_WORD}+)$`, 'u');

/**
 * rust.py parse_log_cargo: libtest's `test path::name ... ok|FAILED`. `ignored` records nothing,
 * and neither do doc-tests (`test src/lib.rs - f (line 3) ... ok`): their names hold spaces.
 */
export function parseCargo(log: string): StatusMap {
  const map: StatusMap = new Map();
  for (const line of log.split('\n')) {
    const m = RESULT.exec(pyStrip(line));
    if (!m) continue;
    if (m[2] === 'ok') map.set(m[1], PASSED);
    else if (m[2] === 'FAILED') map.set(m[1], FAILED);
  }
  return map;
}
