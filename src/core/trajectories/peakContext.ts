import type { ModelStats } from '../../protocol/trajectory';

/**
 * The largest input context of one model call (ChainSWE A.4, Table 8: "the peak input-context
 * size (in tokens) reached during every agent run"). Only a trajectory that records each call's
 * prompt tokens says it (OpenHands' `metrics.token_usages[].prompt_tokens`); a run total such as
 * SWE-agent's `tokens_sent` is a sum over calls, not a context size, so it gives null.
 */
export function peakContextTokens(stats: ModelStats | null | undefined): number | null {
  const usages = stats?.raw.token_usages;
  if (!Array.isArray(usages)) return null;
  let peak: number | null = null;
  for (const u of usages) {
    const tokens = (u as { prompt_tokens?: unknown } | null)?.prompt_tokens;
    if (typeof tokens === 'number' && Number.isFinite(tokens)) peak = Math.max(peak ?? 0, tokens);
  }
  return peak;
}
