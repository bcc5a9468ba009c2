import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fstatSync,
  futimesSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { type HookRuntime, type Outcome, onPath, type TextFileProblem, tempFolderOf } from '@kit/fail-open';
import type { PathKind } from './csharp-path.ts';
import type { MarkerRead, MarkerStore } from './escape.ts';
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
  tempFolder: string; // the OS temp folder; markers live in <tempFolder>/roseline-gate/<session>/
  findOnPath: (name: string, env: Record<string, string | undefined>) => string | null; // no subprocess
  listFolder: (dir: string) => FolderEntry[] | null; // null: cannot be read
  pathKind: (path: string) => PathKind; // what the Read's path names: only a file (or nothing yet) is C# source
}

/** What `fileSystemContext` needs besides the real file system. */
export interface FileSystemContextOptions {
  env: Record<string, string | undefined>;
  cwd: string;
  tempFolder: string;
  now?: () => number; // default Date.now; when given, markers are stamped with it too
  platform?: NodeJS.Platform; // default process.platform
  deadline?: number;
}

/**
 * A context on the real file system with the env, cwd, temp folder and clock given. Without a
 * clock, a marker's time is the file system's own stamp of each write; with one, every write is
 * stamped with it, so a test's clock and the markers agree.
 */
export function fileSystemContext(options: FileSystemContextOptions): GuardContext {
  const platform = options.platform ?? process.platform;
  const store = markerStore(options.now === undefined ? null : options.now);
  return {
    env: options.env,
    cwd: options.cwd,
    platform,
    now: options.now ?? Date.now,
    ...(options.deadline === undefined ? {} : { deadline: options.deadline }),
    tempFolder: options.tempFolder,
    findOnPath: (name, env) => onPath(name, env, platform),
    listFolder,
    pathKind,
    ...store,
  };
}

/** The hook's context: the runtime's env, the process cwd and the temp folder that env names. */
export function realContext(runtime: HookRuntime): GuardContext {
  return fileSystemContext({
    env: runtime.env,
    cwd: process.cwd(),
    tempFolder: tempFolderOf(runtime.env, process.platform),
    deadline: runtime.deadline,
  });
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

// Markers are a few dozen bytes: anything bigger is not one of ours, and is not read.
const maxMarkerBytes = 4096;

// The real marker store. With no clock the file system stamps each write as it happens: a time read
// from the clock first would be as old as the hook was held up before the write, and under load
// that can be seconds, making a marker touched just now look quiet.
function markerStore(clock: (() => number) | null): MarkerStore {
  const stamp = (fd: number): void => {
    if (clock === null) return;
    const seconds = clock() / 1000;
    futimesSync(fd, seconds, seconds);
  };

  function createMarker(file: string, text: string): 'created' | 'exists' | 'failed' {
    try {
      // Owner-only: the temp folder is shared, and a marker says which files a session reads.
      mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    } catch {
      return 'failed';
    }
    let fd: number;
    try {
      fd = openSync(file, 'wx', 0o600);
    } catch (error) {
      return codeOf(error) === 'EEXIST' ? 'exists' : 'failed';
    }
    try {
      writeSync(fd, text);
      stamp(fd);
      return 'created';
    } catch {
      removeQuietly(file);
      return 'failed';
    } finally {
      closeSync(fd);
    }
  }

  function touchMarker(file: string): void {
    let fd: number;
    try {
      fd = openSync(file, 'r+');
    } catch {
      return; // claimed meanwhile, or never written: the next Read sees that for itself
    }
    try {
      // Its own first byte written back: the content stays, and the write is stamped now.
      const first = Buffer.alloc(1);
      if (readSync(fd, first, 0, 1, 0) === 1) writeSync(fd, first, 0, 1, 0);
      stamp(fd);
    } catch {
      // Unwritable: the marker keeps its older stamp, and the next Read judges by that.
    } finally {
      closeSync(fd);
    }
  }

  return {
    readMarker,
    createMarker,
    replaceMarker: (file, text) => {
      const staged = uniqueSibling(file, 'new');
      if (createMarker(staged, text) !== 'created') return false;
      try {
        renameSync(staged, file);
      } catch {
        removeQuietly(staged);
        return false;
      }
      // Stamped again once in place: a hook held up between the write and the rename would
      // otherwise show a marker older than it is.
      touchMarker(file);
      return true;
    },
    claimMarker,
    touchMarker,
  };
}

function readMarker(file: string): Outcome<MarkerRead, TextFileProblem> {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    const code = codeOf(error);
    return code === 'ENOENT' || code === 'ENOTDIR'
      ? { ok: false, reason: 'absent', message: `${file} does not exist` }
      : { ok: false, reason: 'unreadable', message: `cannot open ${file} (${code})` };
  }
  try {
    // One descriptor for the time and the text: both are of the same file, whatever is renamed meanwhile.
    const stats = fstatSync(fd);
    if (!stats.isFile() || stats.size > maxMarkerBytes)
      return { ok: false, reason: 'unreadable', message: `${file} is not a marker` };
    return { ok: true, value: { text: readFileSync(fd, 'utf8'), touchedAt: Math.round(stats.mtimeMs) } };
  } catch (error) {
    return { ok: false, reason: 'unreadable', message: `cannot read ${file} (${codeOf(error)})` };
  } finally {
    closeSync(fd);
  }
}

function claimMarker(file: string): Outcome<MarkerRead, 'gone' | 'failed'> {
  const claimed = uniqueSibling(file, 'taken');
  try {
    renameSync(file, claimed);
  } catch (error) {
    const code = codeOf(error);
    return code === 'ENOENT'
      ? { ok: false, reason: 'gone', message: `${file} was claimed by another call` }
      : { ok: false, reason: 'failed', message: `cannot claim ${file} (${code})` };
  }
  const read = readMarker(claimed);
  removeQuietly(claimed);
  return read.ok ? read : { ok: false, reason: 'failed', message: read.message };
}

function removeQuietly(file: string): void {
  try {
    rmSync(file, { force: true });
  } catch {
    // A leftover in the session's own folder is harmless: no marker has its name.
  }
}

// A name in the marker's own folder (a rename never crosses file systems) that no other call uses.
function uniqueSibling(file: string, purpose: string): string {
  return `${file}.${process.pid}-${randomBytes(6).toString('hex')}.${purpose}`;
}

function codeOf(error: unknown): string {
  return (error as NodeJS.ErrnoException | null)?.code ?? 'unknown error';
}
