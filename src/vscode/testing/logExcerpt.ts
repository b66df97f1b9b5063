// The part of a test log that explains one test's failure, for the TestMessage the Testing view
// shows inline: pytest's "____ test_name ____" section, unittest/Django's "FAIL: test (Class)"
// block, or the lines around the first mention of the test. Pure: no 'vscode'.

const MAX_LINES = 80;

/** "tests/test_parse.py::TestX::test_y[a-b]" -> { file, name: "test_y[a-b]", pytestTitle: "TestX.test_y[a-b]" }. */
export function splitTestId(id: string): { file: string | undefined; name: string; pytestTitle: string } {
  const parts = id.split('::');
  if (parts.length === 1) {
    // unittest style: "test_y (module.Class)" or "module.Class.test_y"
    const m = /^(\S+) \((.+)\)$/.exec(id);
    return { file: undefined, name: m ? m[1] : id, pytestTitle: m ? m[1] : id };
  }
  const [file, ...rest] = parts;
  return { file, name: rest[rest.length - 1], pytestTitle: rest.join('.') };
}

function clip(lines: string[]): string {
  const trimmed = lines.slice(0, MAX_LINES);
  while (trimmed.length && trimmed[trimmed.length - 1].trim() === '') trimmed.pop();
  return (
    trimmed.join('\n') + (lines.length > MAX_LINES ? `\n… (${lines.length - MAX_LINES} more lines in the log)` : '')
  );
}

const PYTEST_HEADER = /^_{3,} (.+?) _{3,}$/;
const SECTION_END = /^(={3,}|_{3,} .* _{3,}$|-{3,} (Captured|generated))/;

/** The excerpt for `testId`, or undefined when the log has nothing specific about it. */
export function failureExcerpt(log: string, testId: string): string | undefined {
  const lines = log.split(/\r?\n/);
  const { name, pytestTitle } = splitTestId(testId);

  // pytest: "_____ test_name[param] _____" up to the next section header.
  for (let i = 0; i < lines.length; i++) {
    const m = PYTEST_HEADER.exec(lines[i]);
    if (!m || (m[1] !== pytestTitle && m[1] !== name)) continue;
    const body: string[] = [lines[i]];
    for (let j = i + 1; j < lines.length && !SECTION_END.test(lines[j]); j++) body.push(lines[j]);
    return clip(body);
  }

  // unittest / Django: "FAIL: test_x (module.Class)" / "ERROR: ..." up to the next "-----" / "=====".
  const unittestHead = new RegExp(`^(FAIL|ERROR): ${escapeRegExp(testId)}\\b|^(FAIL|ERROR): ${escapeRegExp(name)} \\(`);
  for (let i = 0; i < lines.length; i++) {
    if (!unittestHead.test(lines[i])) continue;
    const body: string[] = [lines[i]];
    let j = i + 1;
    if (j < lines.length && /^-{10,}$/.test(lines[j])) j++;
    for (; j < lines.length && !/^(={10,}|-{10,})$/.test(lines[j]); j++) body.push(lines[j]);
    return clip(body);
  }

  // Anything else: the short summary line ("FAILED tests/x.py::test - AssertionError ...") or a mention.
  const mention = lines.findIndex((l) => l.includes(testId) && /FAIL|ERROR/.test(l));
  if (mention >= 0) return clip(lines.slice(Math.max(0, mention - 2), mention + 8));
  return undefined;
}

/**
 * The 0-based line of the log where `testId`'s failure is told: pytest's section header, a
 * unittest/Django FAIL/ERROR head, else the first line naming the test with FAIL or ERROR.
 */
export function failureLine(log: string, testId: string): number | undefined {
  const lines = log.split(/\r?\n/);
  const { name, pytestTitle } = splitTestId(testId);
  const header = lines.findIndex((l) => {
    const m = PYTEST_HEADER.exec(l);
    return m !== null && (m[1] === pytestTitle || m[1] === name);
  });
  if (header >= 0) return header;
  const unittest = lines.findIndex(
    (l) => /^(FAIL|ERROR): /.test(l) && (l.includes(`: ${testId}`) || l.includes(`: ${name} (`)),
  );
  if (unittest >= 0) return unittest;
  const mention = lines.findIndex((l) => l.includes(testId) && /FAIL|ERROR/.test(l));
  return mention >= 0 ? mention : undefined;
}

/**
 * What a failed pytest comparison compared, for TestMessage.diff (actual is pytest's left side).
 * pytest shortens long reprs in "assert A == B" (then both sides can read the same), and spells
 * the difference out below as "attr: A != B" or "A != B": the most specific line wins.
 */
export function assertionOperands(excerpt: string): { actual: string; expected: string } | undefined {
  const lines = excerpt.split('\n').filter((l) => l.startsWith('E '));
  for (const line of [...lines].reverse()) {
    const m = /^E\s+(?:[\w.[\]'"]+: )?(.+?) != (.+)$/.exec(line);
    if (m && m[1].trim() !== m[2].trim()) return { actual: m[1].trim(), expected: m[2].trim() };
  }
  for (const line of lines) {
    const m = /^E\s+(?:AssertionError: )?assert (.+?) == (.+)$/.exec(line);
    if (m && m[1].trim() !== m[2].trim() && !m[1].includes('...'))
      return { actual: m[1].trim(), expected: m[2].trim() };
  }
  return undefined;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
