import type { GradingProfile } from '../../../../protocol/grading';
import type { ProfileRules } from './rules';
import { v4Rules } from './v4';
import { v5Rules } from './v5';

export const PROFILE_RULES: Readonly<Record<GradingProfile, ProfileRules>> = {
  'swebench-v5': v5Rules,
  'swebench-v4': v4Rules,
};
