/** Small text helpers for the CLI's tables. */
export { textTable as table } from '../core/util/textTable';
