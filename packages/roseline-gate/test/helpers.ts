import { readdirSync } from 'node:fs';
import path from 'node:path';
import { type HookInput, readPayload, type Verdict } from '@kit/gate-approval';
import { executable, tempDir, tempTree } from '@kit/test-kit';
import { fileSystemContext, type GuardContext } from '../src/context.ts';
import type { PathKind } from '../src/csharp-path.ts';
import type { MarkerRead } from '../src/escape.ts';
import type { FolderEntry, ListFolder } from '../src/project-marker.ts';

/** A folder holding a runnable stub `dnx` (`dnx.cmd` on Windows): put it on PATH to make the launcher probe succeed. */
export function stubLauncherFolder(): string {
  return process.platform === 'win32'
    ? tempTree({ 'dnx.cmd': '@exit /b 0\r\n' }, 'rg-bin')
    : tempTree({ dnx: executable('#!/bin/sh\nexit 0\n') }, 'rg-bin');
}

/** An env holding only PATH (and PATHEXT on Windows): nothing of the test runner's leaks in. */
export function envWithPath(folders: string[], extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = { PATH: folders.join(path.delimiter), ...extra };
  if (process.platform === 'win32') env.PATHEXT = '.COM;.EXE;.BAT;.CMD';
  return env;
}

/** A Read payload as the host sends it, in session `session-1` unless told otherwise. */
export function readCall(filePath: string, cwd: string, sessionId = 'session-1'): HookInput {
  return readPayload(filePath, { cwd, sessionId });
}

/** A real file-system context with its own temp folder (markers never leak between tests) and a settable clock. */
export function realFsContext(
  env: Record<string, string>,
  options: { cwd?: string; tempFolder?: string } = {},
): { context: GuardContext; temp: string; advance: (ms: number) => void } {
  let clock = 1_700_000_000_000;
  const temp = options.tempFolder ?? tempDir('rg-markers');
  const context: GuardContext = fileSystemContext({
    env,
    cwd: options.cwd ?? temp,
    tempFolder: temp,
    now: () => clock,
  });
  return {
    context,
    temp,
    advance: (ms: number) => {
      clock += ms;
    },
  };
}

/** Every file below a folder, relative, sorted: what a test expects to find in the temp folder. */
export function filesBelow(dir: string): string[] {
  try {
    return (
      (readdirSync(dir, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
        .filter((entry) => entry.isFile())
        .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
        // Node's compile cache for the hook bundle (Node 22.1+) and the verdict server's folder are
        // the kit runtime's, not the guard's markers.
        .filter((file) => !file.startsWith('kit-code-cache-') && !file.startsWith('kit-hooks-'))
        .sort()
    );
  } catch {
    return [];
  }
}

/** A listFolder over an in-memory list of file paths, in one path flavor; `unreadable` folders answer null. */
export function fakeListFolder(
  files: string[],
  flavor: typeof path.posix,
  unreadable: string[] = [],
): ListFolder {
  return (dir: string): FolderEntry[] | null => {
    if (unreadable.includes(dir)) return null;
    const entries = new Map<string, boolean>();
    for (const file of files) {
      for (
        let child = file, parent = flavor.dirname(file);
        parent !== child;
        child = parent, parent = flavor.dirname(parent)
      ) {
        if (parent === dir) entries.set(flavor.basename(child), child !== file);
      }
    }
    // A folder exists when some file lives below it.
    return entries.size === 0 ? null : [...entries].map(([name, isFolder]) => ({ name, isFolder }));
  };
}

/** A context with no real file system: fake folders, a fixed launcher answer, an in-memory marker store. */
export function fakeContext(options: {
  files: string[];
  flavor?: typeof path.posix;
  platform?: NodeJS.Platform;
  env?: Record<string, string>;
  launcher?: boolean;
  cwd?: string;
  unreadable?: string[];
  writable?: boolean;
  pathKinds?: Record<string, PathKind>; // over what `files` says (a file, a folder above one, else missing)
}): { context: GuardContext; markers: Map<string, MarkerRead>; advance: (ms: number) => void } {
  const flavor = options.flavor ?? path.posix;
  const markers = new Map<string, MarkerRead>();
  let clock = 1_700_000_000_000;
  const context: GuardContext = {
    env: options.env ?? {},
    cwd: options.cwd ?? (flavor === path.win32 ? 'C:\\' : '/'),
    platform: options.platform ?? (flavor === path.win32 ? 'win32' : 'linux'),
    now: () => clock,
    tempFolder: flavor === path.win32 ? 'C:\\Temp' : '/tmp',
    findOnPath: (name) =>
      options.launcher === false ? null : flavor.join(flavor === path.win32 ? 'C:\\bin' : '/bin', `${name}`),
    listFolder: fakeListFolder(options.files, flavor, options.unreadable),
    pathKind: (path) =>
      options.pathKinds?.[path] ??
      (options.files.includes(path)
        ? 'file'
        : options.files.some((file) => file.startsWith(path + flavor.sep))
          ? 'not-a-file'
          : 'missing'),
    readMarker: (file) => {
      const marker = markers.get(file);
      return marker === undefined
        ? { ok: false, reason: 'absent', message: `${file} does not exist` }
        : { ok: true, value: { ...marker } };
    },
    createMarker: (file, text) => {
      if (options.writable === false) return 'failed';
      if (markers.has(file)) return 'exists';
      markers.set(file, { text, touchedAt: clock });
      return 'created';
    },
    replaceMarker: (file, text) => {
      if (options.writable === false) return false;
      markers.set(file, { text, touchedAt: clock });
      return true;
    },
    claimMarker: (file) => {
      const marker = markers.get(file);
      if (marker === undefined) return { ok: false, reason: 'gone', message: `${file} is gone` };
      markers.delete(file);
      return { ok: true, value: marker };
    },
    touchMarker: (file) => {
      const marker = markers.get(file);
      if (marker !== undefined) marker.touchedAt = clock;
    },
  };
  return {
    context,
    markers,
    advance: (ms: number) => {
      clock += ms;
    },
  };
}

/** deny or silent: what a test compares against a case's `want`. */
export function outcomeOf(verdict: Verdict): 'deny' | 'silent' | 'refuse' {
  if (verdict.kind === 'deny' || verdict.kind === 'refuse') return verdict.kind;
  return 'silent';
}
