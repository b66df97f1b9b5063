// An attached agent's record of one step, kept as lines appended per tool call instead of one
// document rewritten per call (docs/run-state.md, "Agent recordings"): rewriting the whole
// trajectory on every call made each call cost the length of the trajectory (~200 ms at 1 MB;
// a burst of 1,000 calls did not finish in 3 minutes).
//
//   runs/<run>/agent/step-<k>.record.jsonl   {"record": <every field but events>}  the header (the last one holds)
//                                            {"event": <AgentEvent>}                one line per event, in order
//
// The mini-swe-agent `.traj.json` beside it (what `chainlens trajectory` and the VS Code viewer
// read) is rendered from the record: when the step ends at once, while it is worked at most every
// RENDER_MS and on exit, so a burst costs a few renders, not one per call. A kill can leave the
// rendered file behind the record; the next call (or open) renders it again.
import { closeSync, existsSync, fstatSync, ftruncateSync, openSync, readFileSync, statSync } from 'node:fs';
import { AgentRecordSchema, type AgentEvent, type AgentRecord } from '../../protocol/agent';
import { UserError } from '../../core/util/errors';
import { writeFileAtomic, writeFully } from '../files';

type Header = Omit<AgentRecord, 'events'>;

interface Known {
  record: AgentRecord;
  /** The journal's size after our last write: another size means another writer, so read again. */
  size: number;
  header: string;
}

/** What this process last wrote or read per journal: a call then appends without reading the file. */
const known = new Map<string, Known>();

function headerOf(record: AgentRecord): string {
  const { events: _events, ...header } = record;
  void _events;
  return JSON.stringify(header satisfies Header);
}

/** The record in `file`, or null when there is none; a damaged line is an error naming the file and line. */
export function readRecordJournal(file: string): AgentRecord | null {
  if (!existsSync(file)) return null;
  const size = statSync(file).size;
  const cached = known.get(file);
  if (cached && cached.size === size) return cached.record;
  const text = readFileSync(file, 'utf8');
  let header: unknown = null;
  const events: unknown[] = [];
  const lines = text.split('\n');
  lines.forEach((line, i) => {
    if (line === '') return;
    let value: { record?: unknown; event?: unknown };
    try {
      value = JSON.parse(line) as typeof value;
    } catch (e) {
      // A last line cut short (a full disk, power loss) lost only that line's event.
      if (i === lines.length - 1) return;
      throw new UserError(`${file}: line ${i + 1} is not JSON (${(e as Error).message})`, 'state');
    }
    if (value.record !== undefined) header = value.record;
    else if (value.event !== undefined) events.push(value.event);
    else throw new UserError(`${file}: line ${i + 1} is neither a record nor an event`, 'state');
  });
  if (header === null) throw new UserError(`${file}: no record line`, 'state');
  const parsed = AgentRecordSchema.safeParse({ ...(header as object), events });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UserError(`${file}: not a ChainLens agent record (${issue?.path.join('.')}: ${issue?.message})`, 'state');
  }
  known.set(file, { record: parsed.data, size, header: headerOf(parsed.data) });
  return parsed.data;
}

/**
 * Saves `record` to the journal `file`: only the events added since the record this process
 * last saw (and the header, when it changed) are appended. A record that does not extend it (or
 * a journal another process changed since) is written whole, atomically.
 */
export function writeRecordJournal(file: string, record: AgentRecord): void {
  const before = known.get(file);
  const current = existsSync(file) ? statSync(file).size : -1;
  const header = headerOf(record);
  const extends_ =
    before !== undefined &&
    before.size === current &&
    record.events.length >= before.record.events.length &&
    record.events
      .slice(0, before.record.events.length)
      .every((e, i) => e === before.record.events[i] || e.id === before.record.events[i].id);
  if (!extends_) {
    const text = [
      JSON.stringify({ record: JSON.parse(header) }),
      ...record.events.map((e) => JSON.stringify({ event: e })),
    ]
      .map((l) => l + '\n')
      .join('');
    writeFileAtomic(file, text);
    known.set(file, { record, size: Buffer.byteLength(text), header });
    return;
  }
  const added: string[] = [];
  if (header !== before.header) added.push(JSON.stringify({ record: JSON.parse(header) }));
  for (const e of record.events.slice(before.record.events.length))
    added.push(JSON.stringify({ event: e satisfies AgentEvent }));
  if (added.length === 0) return;
  const bytes = Buffer.from(added.map((l) => l + '\n').join(''), 'utf8');
  const fd = openSync(file, 'a', 0o600);
  try {
    try {
      writeFully(fd, bytes);
    } catch (e) {
      // Never leave half a line for the next append to run on into: back to where it was.
      ftruncateSync(fd, before.size);
      throw e;
    }
    known.set(file, { record, size: fstatSync(fd).size, header });
  } finally {
    closeSync(fd);
  }
}

/**
 * How often, at most, a worked step's rendered trajectory is rewritten during a burst of calls:
 * every RENDER_MS, or less often when a render takes long (a trajectory of many MB), so that
 * rendering takes at most about a tenth of a burst's time however long the trajectory grows.
 */
const RENDER_MS = 500;
const renderCost = new Map<string, number>();
const interval = (file: string) => Math.max(RENDER_MS, 10 * (renderCost.get(file) ?? 0));
const pending = new Map<string, () => string>();
const lastRender = new Map<string, number>();
let timer: NodeJS.Timeout | undefined;

function renderNow(file: string, render: () => string): void {
  pending.delete(file);
  const started = Date.now();
  writeFileAtomic(file, render());
  lastRender.set(file, Date.now());
  renderCost.set(file, Date.now() - started);
}

function flushRenders(): void {
  timer = undefined;
  for (const [file, render] of [...pending]) {
    try {
      renderNow(file, render);
    } catch {
      // The record is safe in its journal; the next save renders the trajectory again.
    }
  }
}

let exitHook = false;

/**
 * Writes `render()` to `file`: at once when the step ended (`final`) or the last render is older
 * than RENDER_MS (a call on its own is seen at once), else once at the end of that interval
 * however many saves come meanwhile (the latest wins), and on exit.
 */
export function renderTrajectory(file: string, render: () => string, final: boolean): void {
  const last = lastRender.get(file);
  if (final || (!pending.has(file) && (last === undefined || Date.now() - last >= interval(file)))) {
    renderNow(file, render);
    return;
  }
  pending.set(file, render);
  if (!exitHook) {
    exitHook = true;
    process.on('exit', flushRenders);
  }
  timer ??= setTimeout(flushRenders, Math.max(RENDER_MS, interval(file) - (Date.now() - (last ?? 0))));
  timer.unref();
}
