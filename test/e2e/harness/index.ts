// The e2e harness: a real VS Code (code-server) in Debian's Chromium. See README.md.
export { startCodeServer, freePort, type CodeServer, type StartCodeServerOptions } from './codeServer';
export {
  openWorkbench,
  screenshot,
  runCommand,
  openFile,
  typeInEditor,
  editorText,
  waitForNotification,
  expandView,
  clickTreeItem,
  webviewFrame,
  explorerMenu,
  treeItemMenu,
  hoverUntil,
  reloadWindow,
  followWindow,
  type Workbench,
  type OpenWorkbenchOptions,
} from './workbench';
export { readExtensionHostLog, waitForLog, extensionHostLogDirs, type LogSource } from './logs';
export {
  runExtensionHostSuite,
  assertSuitePassed,
  readyExtensionHosts,
  type ExthostReport,
  type ExthostTestResult,
  type RunExthostSuiteOptions,
} from './exthost/run';
export { repoRoot, testResultsDir } from './paths';
export {
  openChainLensWorkbench,
  tempWorkspace,
  type ChainLensWorkbench,
  type E2eWorkspace,
  type OpenChainLensWorkbenchOptions,
} from './fixture';
