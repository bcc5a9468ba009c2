import { readdirSync, statSync } from 'node:fs';
import { type HookRuntime, onPath, type TraceFields, tempFolderOf } from '@kit/fail-open';
import type { PathKind } from './csharp-path.ts';
import type { MarkerStore } from './escape.ts';
import { fileMarkerStore } from './marker-store.ts';
import type { FolderEntry } from './project-marker.ts';

/**
 * Everything `evaluate` may know about the world beyond the payload. The hook builds it from the
 * real process (`realContext`); tests and library callers pass their own.
 */
export interface GuardContext extends MarkerStore {
  env: Record<string, string | undefined>; // ROSELINE_GATE, PATH, PATHEXT
  cwd: string; // stands in for the payload's cwd when the payload has none
  platform: NodeJS.Platform; // win32: PATHEXT and backslash paths
  now: () => number; // milliseconds since the epoch: the escape window
  deadline?: number; // a now() value past which no marker may be armed (the runtime's budget)
  calledAt?: number; // a now() value: when the host made the call (the escape's burst); default: now()
  tempFolder: string; // the OS temp folder; markers live in <tempFolder>/roseline-gate/<session>/
  findOnPath: (name: string, env: Record<string, string | undefined>) => string | null; // no subprocess
  listFolder: (dir: string) => FolderEntry[] | null; // null: cannot be read
  pathKind: (path: string) => PathKind; // what the Read's path names: only a file (or nothing yet) is C# source
  note?: (fields: TraceFields) => void; // the call's trace and audit trail (the runtime's `note`): the escape used
}

/** What `fileSystemContext` needs besides the real file system. */
export interface FileSystemContextOptions {
  env: Record<string, string | undefined>;
  cwd: string;
  tempFolder: string;
  now?: () => number; // default Date.now; when given, markers are stamped with it too
  platform?: NodeJS.Platform; // default process.platform
  deadline?: number;
  calledAt?: number; // when the host made the call; default: when evaluate runs
}

/**
 * A context on the real file system with the env, cwd, temp folder and clock given. Without a
 * clock, a marker's time is the file system's own stamp of each write; with one, every write is
 * stamped with it, so a test's clock and the markers agree.
 */
export function fileSystemContext(options: FileSystemContextOptions): GuardContext {
  const platform = options.platform ?? process.platform;
  const store = fileMarkerStore(options.now === undefined ? null : options.now);
  return {
    env: options.env,
    cwd: options.cwd,
    platform,
    now: options.now ?? Date.now,
    ...(options.deadline === undefined ? {} : { deadline: options.deadline }),
    ...(options.calledAt === undefined ? {} : { calledAt: options.calledAt }),
    tempFolder: options.tempFolder,
    findOnPath: (name, env) => onPath(name, env, platform),
    listFolder,
    pathKind,
    ...store,
  };
}

/**
 * The hook's context: the runtime's env, the process cwd and the temp folder that env names. The
 * escape's burst is judged by when the host made the call, which the runtime carries (the bundle's
 * front stamps it as the hook process starts, and hands it to the verdict server or to the body in
 * process alike), so served and in-process Reads of one burst agree on its time.
 */
export function realContext(runtime: HookRuntime): GuardContext {
  const context = fileSystemContext({
    env: runtime.env,
    cwd: process.cwd(),
    tempFolder: tempFolderOf(runtime.env, process.platform),
    deadline: runtime.deadline,
    ...(runtime.calledAt === undefined ? {} : { calledAt: runtime.calledAt }),
  });
  return runtime.note ? { ...context, note: runtime.note } : context;
}

function listFolder(dir: string): FolderEntry[] | null {
  try {
    return readdirSync(dir, { withFileTypes: true }).map((entry) => ({
      name: entry.name,
      isFolder: entry.isDirectory(),
    }));
  } catch {
    return null;
  }
}

function pathKind(path: string): PathKind {
  try {
    const stats = statSync(path, { throwIfNoEntry: false });
    if (stats === undefined) return 'missing';
    return stats.isFile() ? 'file' : 'not-a-file';
  } catch (error) {
    const code = (error as NodeJS.ErrnoException | null)?.code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'missing' : 'unknown';
  }
}
