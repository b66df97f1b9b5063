// The extensionTestsPath module for @vscode/test-electron: runs the same extension-host suites
// the code-server e2e tests run (test/e2e/exthost/*.suite.ts), in a downloaded VS Code.
import { runRegistered } from '../e2e/harness/exthost/suite';
import '../e2e/exthost/chainlens.suite';

export async function run(): Promise<void> {
  const report = await runRegistered({ defaultTimeoutMs: 20_000 });
  for (const t of report.tests)
    console.log(
      `${t.state === 'passed' ? 'ok  ' : 'FAIL'} ${t.fullTitle} (${t.durationMs} ms)${t.error ? `\n     ${t.error.stack ?? t.error.message}` : ''}`,
    );
  if (report.loadError) throw new Error(`suite did not load: ${report.loadError.stack ?? report.loadError.message}`);
  if (report.failed > 0 || report.tests.length === 0)
    throw new Error(`${report.failed} of ${report.tests.length} extension-host tests failed`);
}
