import type { ChainStep } from '../../protocol/chain';
import { LOG_PARSER_NAMES } from '../../protocol/grading';
import { parserByName } from '../evaluation/grading/repoParsers';
import { evalScriptSection } from '../evaluation/script/harnessEvalScript';

/** What a dataset instance says about grading, beyond F2P/P2P (newer SWE-bench datasets; ChainLens's own test_cmds). */
export interface HarnessFields {
  readonly log_parser?: string;
  readonly eval_type?: 'pass_and_fail' | 'fail_only';
  readonly eval_script?: string;
  readonly test_cmds?: string | null;
}

type StepGrading = Pick<ChainStep, 'logParser' | 'evalType' | 'buildCmd' | 'testCmd'>;

/**
 * The step fields grading reads from an instance: its parser (harness or ChainLens name), its
 * eval type, and its test and build commands (test_cmds first, else the section of its eval
 * script). `problems` gets one line per field that cannot be used, at `path`.
 */
export function stepGradingFields(instance: HarnessFields, where: string, problems: string[]): StepGrading {
  const fields: StepGrading = { testCmd: instance.test_cmds ?? null };
  if (instance.log_parser !== undefined) {
    const parser = parserByName(instance.log_parser);
    if (parser === null)
      problems.push(
        `${where}.log_parser: unknown log parser '${instance.log_parser}' (expected a harness name such as parse_log_gotest, or one of: ${LOG_PARSER_NAMES.join(', ')})`,
      );
    else fields.logParser = parser;
  }
  if (instance.eval_type !== undefined) fields.evalType = instance.eval_type;
  if (fields.testCmd === null && instance.eval_script !== undefined) {
    const section = evalScriptSection(instance.eval_script);
    if (section === null || section.test.length === 0)
      problems.push(
        `${where}.eval_script: no test command between the '>>>>> Start Test Output' and '>>>>> End Test Output' markers`,
      );
    else {
      fields.testCmd = section.test.join('\n');
      if (section.build.length) fields.buildCmd = section.build.join('\n');
    }
  }
  return fields;
}
