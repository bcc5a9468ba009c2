import { statSync } from 'node:fs';
import { type HookRuntime, type Outcome, readTextFile, type TextFileProblem } from '@kit/fail-open';
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
}

/** The real probes: `fs.statSync` and `readFileSync` (no subprocess), env and raw text from the runtime. */
export function realContext(runtime: Pick<HookRuntime, 'env' | 'raw'>): GuardContext {
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
  };
}

function statOf(path: string): ReturnType<typeof statSync> | null {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}
