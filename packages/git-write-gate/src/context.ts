import { readFileSync, statSync } from 'node:fs';
import { findWorkTreeTop, type HookRuntime } from '@kit/fail-open';
import type { GuardContext } from './guard-context.ts';

/** The real probes: `fs.statSync` and `readFileSync` (no subprocess), env and raw text from the runtime. */
export function realContext(runtime: Pick<HookRuntime, 'env' | 'raw'>): GuardContext {
  return {
    env: runtime.env,
    raw: runtime.raw,
    isDirectory: (path) => statOf(path)?.isDirectory() ?? false,
    isFile: (path) => statOf(path)?.isFile() ?? false,
    readText: (path) => {
      try {
        return readFileSync(path, 'utf8');
      } catch {
        return null;
      }
    },
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
