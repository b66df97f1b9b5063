export * from './markers';
export { shellQuote, shellWords } from './shell';
export { patchFileSets, testFilesPlan, type PatchFileSets, type TestFilesPlan } from './testFiles';
export * from './testCommand';
export { buildEvalScript, type EvalScriptOptions, type EvalScriptShape, type HarnessProfile } from './evalScript';
export { applyPatchScript } from './applyPatchScript';
export * from './bundle';
export { testExitCodeFromLog } from './logFacts';
export { evalScriptSection, type EvalScriptSection } from './harnessEvalScript';
