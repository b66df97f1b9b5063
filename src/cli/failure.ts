import { isOptionError, isUserError } from '../core/util/errors';
import { cliOptionMessage } from './optionWords';

export interface Failure {
  message: string;
  details: readonly string[];
  /** The exit code (README: 1 bad input or state, 2 usage, 70 a ChainLens bug). */
  code: number;
}

/** What the operating system's error codes mean to a person. */
const SYSTEM_REASONS: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EISDIR: 'is a directory',
  ENOTDIR: 'a part of the path is not a directory',
  EEXIST: 'already exists',
  ENOTEMPTY: 'directory not empty',
  ENOSPC: 'no space left on the device',
  EROFS: 'read-only file system',
  EMFILE: 'too many open files',
  EBUSY: 'resource busy',
  EIO: 'input/output error',
};

interface SystemError extends Error {
  code: string;
  syscall?: string;
  path?: string;
  dest?: string;
}

function isSystemError(e: unknown): e is SystemError {
  return e instanceof Error && typeof (e as SystemError).code === 'string' && (e as SystemError).code in SYSTEM_REASONS;
}

/**
 * Any error a command throws, as a person should read it. UserErrors were written for people; an
 * error of the operating system (a file that cannot be written, a full disk) is bad state of the
 * environment, named by path; anything else is a ChainLens bug, told as one line (the stack only
 * with CHAINLENS_DEBUG=1), never as a stack trace.
 */
export function describeFailure(e: unknown): Failure {
  if (isOptionError(e)) return { message: cliOptionMessage(e), details: e.details, code: e.kind === 'usage' ? 2 : 1 };
  if (isUserError(e)) return { message: e.message, details: e.details, code: e.kind === 'usage' ? 2 : 1 };
  if (isSystemError(e)) {
    const what = [e.syscall, e.path, e.dest ? `-> ${e.dest}` : ''].filter(Boolean).join(' ');
    return {
      message: `cannot ${what || 'complete the operation'}: ${SYSTEM_REASONS[e.code]} (${e.code})`,
      details: [],
      code: 1,
    };
  }
  const text = e instanceof Error ? e.message : String(e);
  return {
    message: `internal error: ${text.split('\n')[0]}`,
    details: ['this is a bug in ChainLens; run again with CHAINLENS_DEBUG=1 to see where it happened'],
    code: 70,
  };
}
