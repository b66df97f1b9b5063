// A problem of a trajectory file, naming the file and where in it: the viewer's banner and the
// CLI's stderr line (written as compilers do).
import type { TrajectoryProblem } from '../../../protocol/trajectory';

/** `x.traj:12:5 ($.trajectory[3]): message`. */
export function problemText(p: TrajectoryProblem): string {
  const where = [p.line, p.line !== undefined ? p.column : undefined].filter((n) => n !== undefined).join(':');
  const at = [
    where ? `${p.file}:${where}` : p.file,
    p.byteOffset !== undefined && p.line === undefined ? `byte ${p.byteOffset}` : '',
    p.jsonPath ? `(${p.jsonPath})` : '',
  ]
    .filter(Boolean)
    .join(' ');
  return `${at}: ${p.message}`;
}

/** `file:line:col: severity: message (at $.json.path)`; `absolute` is shown as `shown`. */
export function compilerProblemText(p: TrajectoryProblem, shown: string, absolute: string): string {
  const file = p.file === absolute ? shown : p.file;
  const pos = [p.line, p.column].filter((n) => n !== undefined).join(':');
  const where = [p.jsonPath ? `at ${p.jsonPath}` : '', p.byteOffset !== undefined ? `byte ${p.byteOffset}` : '']
    .filter(Boolean)
    .join(', ');
  return `${file}${pos ? ':' + pos : ''}: ${p.severity}: ${p.message}${where ? ` (${where})` : ''}`;
}
