import { readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** The top of a git work tree and where its git directory is. */
export interface WorkTreeTop {
  top: string; // the folder holding `.git`
  gitDir: string; // absolute; for a `.git` file, the folder its `gitdir:` line names
  linked: boolean; // true when `.git` is a file: a linked worktree or a submodule
}

const maxLevels = 256;

/**
 * Walks up from `dir` to the first folder holding `.git` (a folder, or a file with a `gitdir:`
 * line) and returns that work-tree top, or null. No subprocess; at most 256 levels; a `.git` file
 * that cannot be read or has no `gitdir:` line ends the walk with null, as git itself gives up there.
 */
export function findWorkTreeTop(dir: string): WorkTreeTop | null {
  let current = resolve(dir);
  for (let level = 0; level < maxLevels; level += 1) {
    const marker = resolve(current, '.git');
    const kind = entryKind(marker);
    if (kind === 'dir') return { top: current, gitDir: marker, linked: false };
    if (kind === 'file') {
      const gitDir = readGitDirLine(marker);
      return gitDir === null ? null : { top: current, gitDir: resolve(current, gitDir), linked: true };
    }
    const parent = dirname(current);
    if (parent === current) return null;
    current = parent;
  }
  return null;
}

function entryKind(path: string): 'dir' | 'file' | null {
  try {
    const stats = statSync(path);
    if (stats.isDirectory()) return 'dir';
    return stats.isFile() ? 'file' : null;
  } catch {
    return null;
  }
}

function readGitDirLine(file: string): string | null {
  try {
    const match = /^gitdir:[ \t]*(.+?)[ \t]*\r?$/m.exec(readFileSync(file, 'utf8'));
    return match?.[1] ?? null;
  } catch {
    return null;
  }
}
