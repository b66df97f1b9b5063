export { groupOf, isIec, GROUP_NAMES } from './taxonomy';
export { parseLabels, parseLabelLine, LabelFileReader } from './parse';
export { agreement, cohenKappa, pairLabels, type Agreement, type KappaResult, type LabelPair } from './agreement';
export { suggestionsAsLabels, type SuggestionContext } from './suggested';
export { formatAgreement } from './format';
