import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { OptionError, UserError } from '../../core/util/errors';
import type { Chain } from '../../protocol/chain';
import type { StudyFile } from '../../protocol/study';
import { writeFileAtomic } from '../../infra/files';
import { createWorkTree, ensureLocalSource } from '../../infra/git/mirror';
import type { LoadedStudy } from './loadStudy';

/** Where a pack's participants write the file they send back (relative to the pack's study file). */
export const PACK_RESULTS_DIR = 'results';

/**
 * `study pack` (docs/study.md "Packs"): one folder per participant that they open with VS Code (or
 * in its dev container) to run their session on their own machine. It holds their tasks only: each
 * chain without gold patches, test patches or test ids (except the gold of steps their condition
 * authors `gold`, which is their starting point by design), each repository with history up to the
 * base commit only, the agent patches of their `recorded` steps, their assignment, the consent text,
 * a `.devcontainer` and the editor settings. Grading stays with the researcher: submissions are not
 * graded in a pack, and `study export --results` merges the file the participant sends back.
 * Each participant's folder is made beside its final place and renamed into it when complete.
 */
export async function packStudy(
  study: LoadedStudy,
  outDir: string,
  options: { participant?: string; log?: (line: string) => void } = {},
): Promise<{ participants: string[]; folders: string[] }> {
  const log = options.log ?? (() => {});
  if (study.study.feedback !== 'none')
    throw new UserError(
      `a pack holds no hidden tests, so it cannot give test feedback: set "feedback": "none" in ${study.file} to pack it`,
      'input',
      [`${study.file}: $.feedback: a pack needs "none"`],
    );
  const participants = options.participant ? [options.participant] : [...study.sessions.keys()];
  for (const p of participants)
    if (!study.sessions.has(p))
      throw new UserError(`'${p}' is not a participant of the study '${study.study.name}'`, 'usage');
  for (const p of participants) {
    const target = join(outDir, p);
    if (existsSync(target) && readdirSync(target).length)
      throw new OptionError('out', `${target} exists and is not empty: choose another folder`);
  }
  const folders: string[] = [];
  for (const participant of participants) {
    const target = join(outDir, participant);
    const partial = join(outDir, `.${participant}.chainlens-pack-${process.pid}`);
    rmSync(partial, { recursive: true, force: true });
    mkdirSync(partial, { recursive: true });
    try {
      await packParticipant(study, participant, partial, log);
      rmSync(target, { recursive: true, force: true });
      renameSync(partial, target);
    } finally {
      rmSync(partial, { recursive: true, force: true });
    }
    folders.push(target);
    log(`packed ${participant} into ${target}`);
  }
  return { participants, folders };
}

async function packParticipant(
  study: LoadedStudy,
  participant: string,
  dir: string,
  log: (line: string) => void,
): Promise<void> {
  const assigned = study.sessions.get(participant)!;
  const tasks: StudyFile['tasks'] = [];
  for (const { task: taskId, condition: name } of assigned) {
    const task = study.tasks.get(taskId)!;
    const condition = study.study.conditions.find((c) => c.name === name)!;
    const chainFile = join('chains', `${taskId}.json`);
    writeFileAtomic(join(dir, chainFile), JSON.stringify(packedChain(task.chain, condition.authors), null, 2) + '\n');
    const repo = join('repos', taskId);
    log(`copying the history of ${task.task.repo} up to ${task.chain.baseCommit.slice(0, 12)} for ${taskId}`);
    mkdirSync(join(dir, 'repos'), { recursive: true });
    await createWorkTree(
      await ensureLocalSource(task.source, task.chain.baseCommit, log),
      join(dir, repo),
      task.chain.baseCommit,
    );
    let predictions: string | undefined;
    if (condition.authors.includes('recorded')) {
      predictions = join('predictions', `${taskId}.jsonl`);
      const lines = task.chain.steps
        .filter((_, i) => condition.authors[i] === 'recorded')
        .map((s) => {
          const p = task.predictions?.byInstance.get(s.instanceId);
          return JSON.stringify({
            instance_id: s.instanceId,
            model_name_or_path: p?.model ?? 'unknown',
            model_patch: p?.patch ?? '',
          });
        });
      writeFileAtomic(join(dir, predictions), lines.join('\n') + '\n');
    }
    tasks.push({ id: taskId, chain: chainFile, repo, ...(predictions ? { predictions } : {}) });
  }
  const names = new Set(assigned.map((a) => a.condition));
  const packed: StudyFile = {
    ...study.study,
    tasks,
    conditions: study.study.conditions.filter((c) => names.has(c.name)),
    participants: [participant],
    assignment: { kind: 'explicit', sessions: { [participant]: [...assigned] } },
    pack: { resultsDir: PACK_RESULTS_DIR },
  };
  writeFileAtomic(join(dir, 'study.json'), JSON.stringify(packed, null, 2) + '\n');
  writeFileAtomic(join(dir, PACK_RESULTS_DIR, 'README.md'), resultsReadme(participant, study.study.name));
  writeFileAtomic(
    join(dir, '.devcontainer', 'devcontainer.json'),
    JSON.stringify(devcontainer(study.study.name), null, 2) + '\n',
  );
  writeFileAtomic(
    join(dir, '.vscode', 'settings.json'),
    JSON.stringify(
      {
        // The participant's work trees are theirs to edit; the pack's own files are not.
        'files.readonlyInclude': { 'chains/**': true, 'predictions/**': true, 'study.json': true },
        'chainlens.agent.testFeedback': 'none',
        'chainlens.defaultMode': study.study.mode,
        'git.openRepositoryInParentFolders': 'never',
      },
      null,
      2,
    ) + '\n',
  );
  if (existsSync(join(dirname(study.file), 'README.md')) && basename(study.file) !== 'README.md')
    cpSync(join(dirname(study.file), 'README.md'), join(dir, 'STUDY-README.md'));
}

/** The chain as a participant may hold it: ChainSWE JSON without answers (docs/study.md "Packs"). */
function packedChain(chain: Chain, authors: readonly string[]): unknown {
  return {
    continuous_id: chain.id,
    repo: chain.repo,
    base_commit: chain.baseCommit,
    docker_image: chain.dockerImage,
    source: 'ChainLens study pack (no gold patches, test patches or test ids)',
    bug_fixes: chain.steps.map((s, i) => ({
      order: s.order,
      swebench_instance_id: s.instanceId,
      problem_statement: s.problemStatement,
      patch: authors[i] === 'gold' ? s.goldPatch : '',
      test_patch: '',
      FAIL_TO_PASS: [],
      PASS_TO_PASS: [],
    })),
  };
}

function devcontainer(study: string): unknown {
  return {
    name: `ChainLens study ${study}`,
    image: 'mcr.microsoft.com/devcontainers/base:bookworm',
    features: { 'ghcr.io/devcontainers/features/node:1': { version: '20' } },
    customizations: { vscode: { extensions: ['chainlens.chainlens'] } },
  };
}

function resultsReadme(participant: string, study: string): string {
  return `# Your results\n\nAfter each step you submit, ChainLens writes \`${participant}.results.json\` here: your code for each step and the time you spent, under your pseudonymous id only. When you have finished (or want to stop), send that one file to the researcher of the study "${study}".\n`;
}
