import { JsonAssembler, skipTrajectoryValue, splitTrajectoryDocument, wholeTrajectoryValue } from './jsonAssembler';
import { JsonSplitter, type SplitPredicate } from './jsonSplitter';

export interface DocumentProblem {
  message: string;
  line: number;
  column: number;
  jsonPath?: string;
}

export interface JsonDocumentRead {
  /** undefined when nothing at all could be read. */
  value: unknown;
  /** false when the text ended early or was cut by a syntax error. */
  complete: boolean;
  problems: DocumentProblem[];
}

/**
 * JSON.parse with a second chance: valid text takes the native fast path; otherwise the text is
 * cut into pieces (see JsonSplitter) so everything before the damage is still returned, with the
 * damage named by line, column and JSON path.
 */
export function readJsonDocument(text: string, split: SplitPredicate = splitTrajectoryDocument): JsonDocumentRead {
  try {
    return { value: JSON.parse(text), complete: true, problems: [] };
  } catch {
    // fall through to the piecewise reader, which says where and keeps what came before
  }
  // a trajectory is read as the streaming reader reads it: steps whole, their `query` skipped
  // (docs/reference/trajectories.md, "Reading large files")
  const trajectory = split === splitTrajectoryDocument;
  const assembler = new JsonAssembler(undefined, trajectory ? wholeTrajectoryValue : undefined);
  const splitter = new JsonSplitter(split, assembler, trajectory ? skipTrajectoryValue : undefined);
  splitter.write(text);
  const stop = splitter.end();
  const problems: DocumentProblem[] = assembler.problems.map((p) => ({ ...p }));
  if (stop) problems.push({ message: stop.message, line: stop.line, column: stop.column, jsonPath: stop.jsonPath });
  if (problems.length === 0) {
    // the splitter accepted what JSON.parse refused (e.g. a bad token inside a piece it reparsed): say so
    problems.push({ message: 'the file is not valid JSON', line: 1, column: 1 });
  }
  return { value: assembler.root, complete: false, problems };
}
