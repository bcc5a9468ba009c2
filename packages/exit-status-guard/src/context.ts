import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  type HookRuntime,
  type Outcome,
  readTextFile,
  type TextFileProblem,
  type TraceFields,
  tempFolderOf,
} from '@kit/fail-open';
import type { Registry } from './registry.ts';

/**
 * Everything evaluate needs from outside the payload. evaluate reads nothing else: no process.env,
 * no process.cwd(), no disk but through these probes, so a test or a library user passes a plain object.
 */
export interface GuardContext {
  env: Record<string, string | undefined>;
  cwd: string; // used when the payload carries no cwd
  /** A file's text, or why not: `absent` (nothing there) or `unreadable` (there, but it cannot be read). */
  readText: (path: string) => Outcome<string, TextFileProblem>;
  /** The session scratchpad folder when it exists on disk (`<tmp>/claude-<uid>/<slug>/<session_id>/scratchpad`), else null. */
  findScratchpad: (sessionId: string, projectDir: string) => string | null;
  /** A compiled registry to judge with as is (skips resolution): tests and library users. */
  registry?: Registry;
  /** Adds named fields to the call's trace line and explain's JSON (the runtime's `note`); optional. */
  note?: (fields: TraceFields) => void;
}

/** The real probes behind evaluate: the runtime's env, the process cwd, the file system. */
export function realContext(runtime: Pick<HookRuntime, 'env' | 'note'>): GuardContext {
  return {
    env: runtime.env,
    cwd: process.cwd(),
    readText: readTextFile,
    findScratchpad: findScratchpad(runtime.env),
    ...(runtime.note ? { note: runtime.note } : {}),
  };
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Claude Code's scratchpad lives under `<tmp>/claude-<uid>/<project slug>/<session_id>/scratchpad`. */
function findScratchpad(env: Record<string, string | undefined>) {
  return (sessionId: string, projectDir: string): string | null => {
    const uid = typeof process.getuid === 'function' ? process.getuid() : null;
    if (uid === null) return null;
    const root = join(tempFolderOf(env), `claude-${uid}`);
    const slug = projectDir.replace(/[^A-Za-z0-9]/g, '-');
    const likely = join(root, slug, sessionId, 'scratchpad');
    if (isDirectory(likely)) return likely;
    let entries: string[];
    try {
      entries = readdirSync(root);
    } catch {
      return null;
    }
    for (const entry of entries.slice(0, 200)) {
      const candidate = join(root, entry, sessionId, 'scratchpad');
      if (isDirectory(candidate)) return candidate;
    }
    return null;
  };
}
