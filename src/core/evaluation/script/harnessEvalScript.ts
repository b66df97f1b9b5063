import { END_TEST_OUTPUT, START_TEST_OUTPUT } from './markers';

/** The commands of a harness eval script around its test section. */
export interface EvalScriptSection {
  /** After the last test-patch heredoc, before the start marker (the harness's `build` spec). */
  readonly build: string[];
  /** Between the start and end markers (the exit-code line of v5 scripts left out). */
  readonly test: string[];
}

const HEREDOC_START = /<<-?\s*(['"]?)([A-Za-z_][A-Za-z0-9_]*)\1\s*$/;

/**
 * The test commands of an eval script a dataset embeds (`eval_script`, newer SWE-bench datasets),
 * so a chain step runs exactly what the harness would. Heredoc bodies (the test patch) are skipped,
 * so a patch that mentions the markers cannot confuse it. Null when the script has no markers.
 */
export function evalScriptSection(script: string): EvalScriptSection | null {
  const lines = script.replace(/\r\n?/g, '\n').split('\n');
  let heredoc: string | null = null;
  let sawHeredoc = false;
  let afterPatch: string[] = [];
  let test: string[] | null = null;
  for (const line of lines) {
    if (heredoc !== null) {
      if (line === heredoc) {
        heredoc = null;
        if (test === null) afterPatch = [];
      }
      continue;
    }
    const open = HEREDOC_START.exec(line);
    if (open) {
      heredoc = open[2];
      sawHeredoc = true;
      if (test !== null) test.push(line);
      continue;
    }
    if (test === null) {
      if (line.includes(START_TEST_OUTPUT)) test = [];
      else afterPatch.push(line);
      continue;
    }
    if (line.includes(END_TEST_OUTPUT)) {
      return {
        build: sawHeredoc ? afterPatch.filter((l) => l.trim() !== '') : [],
        test: test.filter((l) => l.trim() !== '' && !/^SWEBENCH_TEST_EXIT_CODE=/.test(l)),
      };
    }
    test.push(line);
  }
  return null;
}
