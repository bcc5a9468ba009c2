import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type HookRuntime, tempFolderOf } from '@kit/fail-open';
import type { GuardContext } from './guard-context.ts';

/** A file's text; null when it does not exist, undefined when it exists but cannot be read. */
export function readText(path: string): string | null | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException | null)?.code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? null : undefined;
  }
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

/** The real probes behind evaluate: the runtime's env, the process cwd, the file system. */
export function realContext(runtime: Pick<HookRuntime, 'env'>): GuardContext {
  return { env: runtime.env, cwd: process.cwd(), readText, findScratchpad: findScratchpad(runtime.env) };
}
