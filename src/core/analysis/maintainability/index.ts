// The four maintainability metrics CodeThread computes per function (Section 5.1, Appendix D.1,
// Table A3), each after the tool CodeThread names for the language (docs/reference/maintainability.md).
import { extractMetrics } from '../extract';
import type { LanguageProfile } from '../languages';
import type { SyntaxNodeLike } from '../syntax';
import { cognitiveComplexity } from './cognitive';
import { halsteadVolume } from './halstead';
import { PythonHalstead } from './pythonHalstead';
import { radonLloc } from './radonLloc';
import { tokenHalstead } from './tokenHalstead';
import type { FunctionMaintainability } from './types';

export type { FunctionMaintainability } from './types';

/** `def`: the definition node; `text`: the symbol's lines (decorators included). */
export function functionMaintainability(
  profile: LanguageProfile,
  def: SyntaxNodeLike,
  text: string,
): FunctionMaintainability {
  const { cyclomatic, lloc } = extractMetrics(profile, def);
  const halstead = profile.id === 'python' ? PythonHalstead.of(def) : tokenHalstead(profile, def);
  return {
    cyclomatic,
    cognitive: cognitiveComplexity(profile, def),
    halstead,
    halsteadVolume: halsteadVolume(halstead),
    lloc: profile.id === 'python' ? radonLloc(text) : lloc,
  };
}
