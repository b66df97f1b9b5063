// The chainlens.* settings that shape an evaluation, read fresh for every run so a change
// applies to the next one without a reload.
import * as vscode from 'vscode';

export type GradingProfile = 'swebench-v5' | 'swebench-v4';

export interface EvaluationSettings {
  /** undefined: the chain's image. */
  image?: string;
  /** undefined: detect; null: copy the repository in; else the path inside the image. */
  repoPathInImage?: string | null;
  timeoutS: number;
  profile: GradingProfile;
  /** undefined: DOCKER_HOST of the environment, else the Docker context, else the local engine. */
  dockerHost?: string;
  /** undefined: DOCKER_CONTEXT of the environment, else the docker CLI's current context. */
  dockerContext?: string;
}

export function evaluationSettings(): EvaluationSettings {
  const config = vscode.workspace.getConfiguration('chainlens');
  const text = (key: string): string | undefined => config.get<string>(key)?.trim() || undefined;
  const repoPath = text('repoPathInImage');
  const timeout = config.get<number>('timeoutSeconds', 1800);
  return {
    image: text('image'),
    repoPathInImage: repoPath === undefined ? undefined : repoPath.toLowerCase() === 'none' ? null : repoPath,
    timeoutS: Number.isFinite(timeout) && timeout > 0 ? timeout : 1800,
    profile: config.get<GradingProfile>('gradingProfile') === 'swebench-v4' ? 'swebench-v4' : 'swebench-v5',
    dockerHost: text('docker.host'),
    dockerContext: text('docker.context'),
  };
}

const environmentDockerHost = process.env.DOCKER_HOST;
const environmentDockerContext = process.env.DOCKER_CONTEXT;

function setEnvironment(name: 'DOCKER_HOST' | 'DOCKER_CONTEXT', value: string | undefined): void {
  if (value) process.env[name] = value;
  else delete process.env[name];
}

/**
 * The engine client (infra/docker) reads DOCKER_HOST and DOCKER_CONTEXT as the docker CLI does;
 * the settings win over the environment the window was started with, and clearing them restores
 * that environment.
 */
export function applyDockerHost(settings: EvaluationSettings): void {
  setEnvironment('DOCKER_HOST', settings.dockerHost ?? environmentDockerHost);
  setEnvironment('DOCKER_CONTEXT', settings.dockerContext ?? environmentDockerContext);
}
