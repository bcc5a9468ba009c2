import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import { isAbsolute, normalize } from 'node:path';
import {
  type HookRuntime,
  type Outcome,
  readTextFile,
  type TextFileProblem,
  type TraceFields,
} from '@kit/fail-open';
import { findWorkTreeTop } from './work-tree.ts';

/**
 * Everything `evaluate` may learn about the world: the environment, the raw stdin text, and the
 * file-system probes. A test passes a plain object; the hook passes `realContext(runtime)`.
 * No probe may throw: a probe that fails answers false / null / a failed outcome.
 */
export interface GuardContext {
  env: Record<string, string | undefined>;
  raw?: string; // the stdin text as the hook read it: strict mode judges an unreadable payload on it
  isDirectory: (path: string) => boolean;
  isFile: (path: string) => boolean; // a regular file (after symlinks)
  readText: (path: string) => Outcome<string, TextFileProblem>; // the profile's text, or why not
  findWorkTreeTop: (dir: string) => string | null; // the folder holding `.git` (a folder, or a file with `gitdir:`)
  /** For a work tree whose `.git` is a file: the main work tree of the repository its `gitdir:` belongs to. */
  ownerOf?: (top: string) => string | null;
  resolveDirectory?: (path: string) => DirectoryOutcome; // a directory a shell can enter, by its physical path
  /** Adds named fields to the call's trace line and explain's JSON (the runtime's `note`); optional. */
  note?: (fields: TraceFields) => void;
}

/**
 * What a probe of a directory answers: its physical path (symlinks resolved, as git sees it), or
 * that a `cd` there fails (`absent`, `not-directory`), or that the file system cannot say
 * (`unreadable`: permissions, a loop of links).
 */
export type DirectoryOutcome = Outcome<string, 'absent' | 'not-directory' | 'unreadable'>;

/** The directory probe of a context; without one, a directory is entered by its name as `isDirectory` says. */
export function directoryProbeOf(context: GuardContext): (path: string) => DirectoryOutcome {
  if (context.resolveDirectory !== undefined) return context.resolveDirectory;
  // No symlinks to follow: the name, with its `.` and `..` taken, is the directory.
  return (path) => {
    const name = normalize(path);
    return context.isDirectory(name)
      ? { ok: true, value: name }
      : { ok: false, reason: 'absent', message: `${path} is not a directory` };
  };
}

/** The real probes: `fs.statSync` and `readFileSync` (no subprocess), env and raw text from the runtime. */
export function realContext(runtime: Pick<HookRuntime, 'env' | 'raw' | 'note'>): GuardContext {
  return {
    env: runtime.env,
    raw: runtime.raw,
    isDirectory: (path) => statOf(path)?.isDirectory() ?? false,
    isFile: (path) => statOf(path)?.isFile() ?? false,
    readText: readTextFile,
    findWorkTreeTop: (dir) => {
      try {
        return findWorkTreeTop(dir)?.top ?? null;
      } catch {
        return null;
      }
    },
    ownerOf: (top) => {
      try {
        return findWorkTreeTop(top)?.owner ?? null;
      } catch {
        return null;
      }
    },
    resolveDirectory: resolveRealDirectory,
    ...(runtime.note ? { note: runtime.note } : {}),
  };
}

/** The physical path of a directory this process could enter (search permission), or why not. */
export function resolveRealDirectory(path: string): DirectoryOutcome {
  if (!isAbsolute(path)) return { ok: false, reason: 'unreadable', message: `${path} is not absolute` };
  let physical: string;
  try {
    physical = realpathSync.native(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { ok: false, reason: 'absent', message: `${path} does not exist` };
    if (code === 'ENOTDIR')
      return { ok: false, reason: 'not-directory', message: `${path} is not a directory` };
    return { ok: false, reason: 'unreadable', message: `${path}: ${code ?? 'cannot be read'}` };
  }
  const stats = statOf(physical);
  if (stats === null || stats === undefined)
    return { ok: false, reason: 'unreadable', message: `${physical} cannot be read` };
  if (!stats.isDirectory())
    return { ok: false, reason: 'not-directory', message: `${path} is not a directory` };
  try {
    accessSync(physical, constants.X_OK);
  } catch {
    return { ok: false, reason: 'unreadable', message: `${physical} cannot be entered` };
  }
  return { ok: true, value: physical };
}

function statOf(path: string): ReturnType<typeof statSync> | null {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}
