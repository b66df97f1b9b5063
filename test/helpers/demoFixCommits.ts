// The demo chain's fix commits, made in a repository of one's own the way demo/tools/build_chain.py
// makes them (test patch + gold patch on the previous fix, the step's author and date), so their
// ids are the chain's commit_hash values and each instance has its base commit.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './demoRepo';

const MAINTAINER = { name: 'Mara Lindqvist', email: 'mara@invoicekit.example' };

export function demoRepoWithFixCommits(): { dir: string; commits: string[]; remove(): void } {
  const tmp = mkdtempSync(join(tmpdir(), 'chainlens-demo-fixes-'));
  const dir = join(tmp, 'repo');
  execFileSync('bash', [join(ROOT, 'scripts/build-demo-repo.sh'), dir], { stdio: ['ignore', 'pipe', 'ignore'] });
  const isolated = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
  const git = (args: string[], env: Record<string, string> = {}, input?: string) =>
    execFileSync('git', ['-c', 'core.autocrlf=false', '-c', 'commit.gpgSign=false', ...args], {
      cwd: dir,
      env: { ...isolated, ...env },
      input,
      encoding: 'utf8',
    }).trim();
  const commits: string[] = [];
  for (const order of [1, 2, 3]) {
    const step = join(ROOT, 'demo/steps', String(order));
    const meta = JSON.parse(readFileSync(join(step, 'meta.json'), 'utf8')) as {
      author: string;
      date: string;
      instance_id: string;
    };
    git(['apply', '-'], {}, readFileSync(join(step, 'test.patch'), 'utf8'));
    git(['apply', '-'], {}, readFileSync(join(step, 'gold.patch'), 'utf8'));
    git(['add', '-A']);
    const [name, email] = meta.author.split(' <');
    const title = readFileSync(join(step, 'issue.md'), 'utf8')
      .split('\n')[0]
      .replace(/^[#\s]+/, '')
      .trim();
    git(['commit', '-q', '--no-verify', '-m', `${title} (#${meta.instance_id.split('-').pop()})`], {
      GIT_AUTHOR_NAME: name,
      GIT_AUTHOR_EMAIL: email.replace(/>$/, ''),
      GIT_AUTHOR_DATE: meta.date,
      GIT_COMMITTER_NAME: MAINTAINER.name,
      GIT_COMMITTER_EMAIL: MAINTAINER.email,
      GIT_COMMITTER_DATE: meta.date,
    });
    commits.push(git(['rev-parse', 'HEAD']));
  }
  return { dir, commits, remove: () => rmSync(tmp, { recursive: true, force: true }) };
}
