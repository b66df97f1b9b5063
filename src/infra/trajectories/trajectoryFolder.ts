// Reads a folder of agent runs for the folder list (src/core/trajectories/folderRows.ts): every
// file the viewer reads, in it and below (SWE-agent keeps one folder per instance): .traj and
// .traj.json by name, other .json and .jsonl files (OpenHands output.jsonl and SDK event logs,
// predictions) by their first bytes, and the evaluation reports beside them. Files are streamed one after another (loadTrajectoryFile), so a folder of
// large runs does not hold them all in memory; a file that cannot be read is listed with its problem.
import { open, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { detectTrajectoryFormat } from '../../core/trajectories/detectFormat';
import { folderRows, resolvedFromReport, type TrajectoryFolderRow } from '../../core/trajectories/folderRows';
import type { TrajectoryFile } from '../../protocol/trajectory';
import { loadTrajectoryFile, type LoadTrajectoryOptions } from './loadTrajectoryFile';

const TRAJECTORY = /(\.traj|\.traj\.json)$/;
/** Named like a file the viewer may read; its first bytes decide. */
const MAYBE_TRAJECTORY = /\.jsonl?$/;
/** As much as format detection needs (src/core/trajectories/detectFormat.ts). */
const HEAD_BYTES = 64 * 1024;
/** Report files the SWE-bench tools write beside runs (results.json, report.json, <model>.<run>.json). */
const REPORT = /(^results\.json$|report\.json$|^[^/]+\.[^/]+\.json$)/;
const MAX_DEPTH = 3;
/** Reports are small; a bigger .json is some other file. */
const MAX_REPORT_BYTES = 32 * 1024 * 1024;

async function walk(dir: string, depth: number, out: { trajectories: string[]; reports: string[] }): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true });
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, e.name);
    if (e.isDirectory()) {
      if (depth < MAX_DEPTH && !e.name.startsWith('.') && e.name !== 'node_modules') await walk(path, depth + 1, out);
    } else if (TRAJECTORY.test(e.name) || (MAYBE_TRAJECTORY.test(e.name) && (await readable(path))))
      out.trajectories.push(path);
    else if (REPORT.test(e.name)) out.reports.push(path);
  }
}

/**
 * Does the file's head show a format the viewer reads? A .jsonl that is only "some JSON lines"
 * (the loader's last guess, with no version) is not listed: drift labels and logs are JSONL too.
 */
async function readable(path: string): Promise<boolean> {
  let head: Uint8Array;
  try {
    const file = await open(path, 'r');
    try {
      const buffer = new Uint8Array(HEAD_BYTES);
      const { bytesRead } = await file.read(buffer, 0, HEAD_BYTES, 0);
      head = buffer.subarray(0, bytesRead);
    } finally {
      await file.close();
    }
  } catch {
    return false;
  }
  const found = detectTrajectoryFormat(path, head);
  return found !== null && !(found.container === 'jsonl' && found.version === null);
}

export interface TrajectoryFolder {
  readonly folder: string;
  readonly rows: TrajectoryFolderRow[];
  /** Report files whose results were merged. */
  readonly reports: string[];
}

export async function readTrajectoryFolder(
  folder: string,
  options: Pick<LoadTrajectoryOptions, 'signal' | 'workerScript'> & {
    onFile?: (file: string, done: number, total: number) => void;
  } = {},
): Promise<TrajectoryFolder> {
  const found = { trajectories: [] as string[], reports: [] as string[] };
  await walk(folder, 0, found);
  const resolved = new Map<string, boolean>();
  const reports: string[] = [];
  for (const path of found.reports) {
    try {
      const text = await readFile(path, 'utf8');
      if (text.length > MAX_REPORT_BYTES) continue;
      const results = resolvedFromReport(JSON.parse(text.replace(/^\uFEFF/, '')));
      if (results.size === 0) continue;
      reports.push(path);
      for (const [id, ok] of results) resolved.set(id, ok);
    } catch {
      // not a report (or not JSON): another file that happens to match the name
    }
  }
  const files: TrajectoryFile[] = [];
  for (const [k, path] of found.trajectories.entries()) {
    options.signal?.throwIfAborted();
    options.onFile?.(path, k, found.trajectories.length);
    try {
      files.push(await loadTrajectoryFile(path, { signal: options.signal, workerScript: options.workerScript }));
    } catch (e) {
      files.push({
        file: path,
        format: null,
        version: null,
        trajectories: [],
        problems: [{ file: path, severity: 'error', message: e instanceof Error ? e.message : String(e) }],
      });
    }
  }
  return { folder, rows: folderRows(files, resolved), reports };
}
