import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { type HookRuntime, onPath, readTextFile, tempFolderOf } from '@kit/fail-open';
import type { MarkerStore } from './escape.ts';
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
}

/** What `fileSystemContext` needs besides the real file system. */
export interface FileSystemContextOptions {
  env: Record<string, string | undefined>;
  cwd: string;
  tempFolder: string;
  now?: () => number; // default Date.now
  platform?: NodeJS.Platform; // default process.platform
  deadline?: number;
}

/** A context on the real file system with the env, cwd, temp folder and clock given. */
export function fileSystemContext(options: FileSystemContextOptions): GuardContext {
  const platform = options.platform ?? process.platform;
  return {
    env: options.env,
    cwd: options.cwd,
    platform,
    now: options.now ?? Date.now,
    ...(options.deadline === undefined ? {} : { deadline: options.deadline }),
    tempFolder: options.tempFolder,
    findOnPath: (name, env) => onPath(name, env, platform),
    listFolder,
    readText: readTextFile,
    writeText,
    removeFile,
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

function writeText(file: string, text: string): boolean {
  try {
    // Owner-only: the temp folder is shared, and a marker says which files a session reads.
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    writeFileSync(file, text, { mode: 0o600 });
    return true;
  } catch {
    return false;
  }
}

function removeFile(file: string): boolean {
  try {
    rmSync(file);
    return true;
  } catch {
    return false;
  }
}
