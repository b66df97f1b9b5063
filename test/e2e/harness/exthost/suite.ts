// The mocha-style (tdd) API of extension-host suites, and the runner the harness calls.
// This file is bundled into each suite and runs INSIDE the extension host, so it uses nothing
// but plain JavaScript: no node:test there, and the bundle stays self-contained.

export type HookFn = () => unknown | Promise<unknown>;

interface TestCase {
  title: string;
  fn: HookFn;
  timeoutMs?: number;
}

interface SuiteNode {
  title: string;
  tests: TestCase[];
  suites: SuiteNode[];
  suiteSetup: HookFn[];
  suiteTeardown: HookFn[];
  setup: HookFn[];
  teardown: HookFn[];
}

export interface ExthostErrorInfo {
  message: string;
  stack?: string;
}

export interface ExthostTestResult {
  /** Suite titles and the test title joined by ' › '. */
  fullTitle: string;
  state: 'passed' | 'failed';
  durationMs: number;
  error?: ExthostErrorInfo;
}

export interface ExthostReport {
  passed: number;
  failed: number;
  durationMs: number;
  tests: ExthostTestResult[];
  /** The suite could not be loaded or a suite-level hook failed outside any test. */
  loadError?: ExthostErrorInfo;
  /** Added by the runner extension. */
  exthostPid?: number;
}

function newSuite(title: string): SuiteNode {
  return { title, tests: [], suites: [], suiteSetup: [], suiteTeardown: [], setup: [], teardown: [] };
}

const root = newSuite('');
let current = root;

export function suite(title: string, body: () => void): void {
  const child = newSuite(title);
  current.suites.push(child);
  const parent = current;
  current = child;
  try {
    body();
  } finally {
    current = parent;
  }
}

export function test(title: string, fn: HookFn, timeoutMs?: number): void {
  current.tests.push({ title, fn, timeoutMs });
}

export const suiteSetup = (fn: HookFn): void => void current.suiteSetup.push(fn);
export const suiteTeardown = (fn: HookFn): void => void current.suiteTeardown.push(fn);
export const setup = (fn: HookFn): void => void current.setup.push(fn);
export const teardown = (fn: HookFn): void => void current.teardown.push(fn);

function errorInfo(err: unknown): ExthostErrorInfo {
  return err instanceof Error ? { message: err.message, stack: err.stack } : { message: String(err) };
}

async function withTimeout(fn: HookFn, timeoutMs: number, what: string): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([Promise.resolve().then(fn), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

interface RunOptions {
  grep?: string;
  defaultTimeoutMs?: number;
}

/** Runs every registered suite in order; one failing test never stops the others. */
export async function runRegistered(options: RunOptions = {}): Promise<ExthostReport> {
  const started = Date.now();
  const timeoutMs = options.defaultTimeoutMs ?? 10_000;
  const grep = options.grep ? new RegExp(options.grep) : undefined;
  const results: ExthostTestResult[] = [];

  const fail = (fullTitle: string, err: unknown, ms = 0): void => {
    results.push({ fullTitle, state: 'failed', durationMs: ms, error: errorInfo(err) });
  };

  async function runSuite(node: SuiteNode, path: string[], setups: HookFn[], teardowns: HookFn[]): Promise<void> {
    const title = (t: string): string => [...path, t].filter(Boolean).join(' › ');
    const tests = node.tests.filter((t) => !grep || grep.test(title(t.title)));
    const hasWork = (s: SuiteNode, p: string[]): boolean =>
      s.tests.some((t) => !grep || grep.test([...p, t.title].filter(Boolean).join(' › '))) ||
      s.suites.some((c) => hasWork(c, [...p, c.title]));
    if (!hasWork(node, path)) return;
    try {
      for (const hook of node.suiteSetup) await withTimeout(hook, timeoutMs, `suiteSetup of "${title('')}"`);
    } catch (err) {
      fail(title('suiteSetup'), err);
      return; // its tests cannot mean anything without the setup
    }
    const allSetups = [...setups, ...node.setup];
    const allTeardowns = [...node.teardown, ...teardowns];
    for (const t of tests) {
      const t0 = Date.now();
      let tornDown = false;
      try {
        for (const hook of allSetups) await withTimeout(hook, timeoutMs, 'setup');
        await withTimeout(t.fn, t.timeoutMs ?? timeoutMs, `test "${t.title}"`);
        tornDown = true;
        for (const hook of allTeardowns) await withTimeout(hook, timeoutMs, 'teardown');
        results.push({ fullTitle: title(t.title), state: 'passed', durationMs: Date.now() - t0 });
      } catch (err) {
        // Still tear down after a failed setup or test, so the next test starts clean.
        if (!tornDown)
          for (const hook of allTeardowns)
            await Promise.resolve()
              .then(hook)
              .catch(() => undefined);
        fail(title(t.title), err, Date.now() - t0);
      }
    }
    for (const child of node.suites) await runSuite(child, [...path, child.title], allSetups, allTeardowns);
    try {
      for (const hook of node.suiteTeardown) await withTimeout(hook, timeoutMs, 'suiteTeardown');
    } catch (err) {
      fail(title('suiteTeardown'), err);
    }
  }

  await runSuite(root, [], [], []);
  const failed = results.filter((r) => r.state === 'failed').length;
  return { passed: results.length - failed, failed, durationMs: Date.now() - started, tests: results };
}

/** Polls `probe` every 100 ms until it gives a value (not undefined or false), or fails naming `what`. */
export function waitFor<T>(what: string, probe: () => T | undefined | false, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const tick = (): void => {
      const value = probe();
      if (value !== undefined && value !== false) return resolve(value);
      if (Date.now() > deadline) return reject(new Error(`timed out waiting for ${what}`));
      setTimeout(tick, 100);
    };
    tick();
  });
}
