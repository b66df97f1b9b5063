import * as z from 'zod';

/**
 * Grading output, shaped like the SWE-bench harness's (docs/reference/grading.md): what `chainlens grade
 * --json` prints and what a step's evaluation report stores.
 */

/** Which harness version's rules grade a log. v5 is the current harness; v4 is release 4.1. */
export const GradingProfileSchema = z.enum(['swebench-v5', 'swebench-v4']);
export type GradingProfile = z.infer<typeof GradingProfileSchema>;

/**
 * The harness's log parsers (swebench/harness/log_parsers), by the names ChainLens gives them:
 * the harness's function name without `parse_log_`, `_` spelled `-`. Grouped by the harness's
 * modules; docs/reference/grading.md says which runner output each one reads.
 */
export const LOG_PARSER_NAMES = [
  // python.py
  'pytest',
  'pytest-options',
  'pytest-v2',
  'django',
  'sympy',
  'seaborn',
  'matplotlib',
  // go.py
  'gotest',
  // rust.py
  'cargo',
  // java.py
  'maven',
  'ant',
  'gradle-custom',
  // c.py
  'redis',
  'jq',
  'doctest',
  'micropython-test',
  'googletest',
  // php.py
  'phpunit',
  // ruby.py
  'minitest',
  'cucumber',
  'ruby-unit',
  'rspec-transformed-json',
  'jekyll',
  // javascript.py
  'jest',
  'jest-json',
  'vitest',
  'karma',
  'tap',
  'immutable-js',
  'calypso',
  'chart-js',
  'marked',
  'p5js',
  'react-pdf',
  'carbon',
  'bpmn-js',
  'eslint',
  'highlightjs',
  'prismjs',
  'openlayers',
  'emotion',
  'grommet',
  'next',
  'cypress',
  'plotly-js',
  'lighthouse',
  'quarto-cli',
] as const;
export const LogParserNameSchema = z.enum(LOG_PARSER_NAMES);
export type LogParserName = z.infer<typeof LogParserNameSchema>;

export const EvalTypeSchema = z.enum(['pass_and_fail', 'fail_only']);
export type EvalType = z.infer<typeof EvalTypeSchema>;

/** The statuses grading knows. */
export const KNOWN_TEST_STATUSES = ['PASSED', 'FAILED', 'SKIPPED', 'ERROR', 'XFAIL'] as const;
/**
 * A status as the parsers record it. Usually one of KNOWN_TEST_STATUSES, but the harness keeps
 * whatever word a line starts with (pytest's `ERROR:` or the second word of a status-at-end line
 * in v4), and so does ChainLens, so grading treats it exactly as the harness would.
 */
export const TestStatusSchema = z.string();
export type TestStatus = z.infer<typeof TestStatusSchema>;

export const ResolutionSchema = z.enum(['RESOLVED_FULL', 'RESOLVED_PARTIAL', 'RESOLVED_NO']);
export type Resolution = z.infer<typeof ResolutionSchema>;

export const TestBucketSchema = z.object({ success: z.array(z.string()), failure: z.array(z.string()) });
export type TestBucket = z.infer<typeof TestBucketSchema>;

export const TestsStatusSchema = z.object({
  FAIL_TO_PASS: TestBucketSchema,
  PASS_TO_PASS: TestBucketSchema,
  FAIL_TO_FAIL: TestBucketSchema,
  PASS_TO_FAIL: TestBucketSchema,
});
export type TestsStatus = z.infer<typeof TestsStatusSchema>;

/** `chainlens grade --json`: exactly these four keys. */
export const GradeResultSchema = z.object({
  /** The harness's "found" flag: the log is usable for grading. */
  log_ok: z.boolean(),
  /** Test id -> status, as grading read it; {} when the log is not usable. */
  status_map: z.record(z.string(), TestStatusSchema),
  tests_status: TestsStatusSchema,
  resolution: ResolutionSchema,
});
export type GradeResult = z.infer<typeof GradeResultSchema>;

/** One instance's entry of the harness's report.json. tests_status is absent when the log was not usable. */
export const InstanceReportSchema = z.object({
  patch_is_None: z.boolean(),
  patch_exists: z.boolean(),
  patch_successfully_applied: z.boolean(),
  resolved: z.boolean(),
  tests_status: TestsStatusSchema.optional(),
});

/** A step's report in SWE-bench's shape: `{ [instance_id]: InstanceReport }`. */
export const StepReportSchema = z.record(z.string(), InstanceReportSchema);
export type StepReport = z.infer<typeof StepReportSchema>;
