import { TEST_EXIT_CODE } from './markers';

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// Anchored to the line start so the `set -x` trace of the echo (`+ echo '>>>>> ...'`) is not read.
const EXIT_CODE_LINE = new RegExp(`^${escape(TEST_EXIT_CODE)}:\\s*(-?\\d+)\\s*$`, 'gm');

/**
 * The test command's exit code as the eval script echoed it, or null when the script never got
 * there. The last such line wins: the echo runs after the tests, so a test printing a fake line
 * earlier cannot override it.
 */
export function testExitCodeFromLog(log: string): number | null {
  let code: number | null = null;
  for (const m of log.matchAll(EXIT_CODE_LINE)) code = Number(m[1]);
  return code;
}
