import { readFileSync, statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';

/** The top of a git work tree and where its git directory is. */
export interface WorkTreeTop {
  top: string; // the folder holding `.git`
  gitDir: string; // absolute; for a `.git` file, the folder its `gitdir:` line names
  linked: boolean; // true when `.git` is a file: a linked worktree or a submodule
  owner?: string; // for a `.git` file naming another checkout's `.git` folder: that checkout
}

/**
 * Walks up from `dir` to the first folder holding `.git` that git would accept, and returns that
 * work-tree top, or null. A `.git` folder that is not a git directory (an empty decoy) is skipped,
 * as git skips it; a `.git` file with a `gitdir:` line is a linked worktree or a submodule, or a
 * folder that borrows another checkout's git directory (its owner). No subprocess
 * and no depth limit: the walk ends at the root. A `.git` file that cannot be read or has no
 * `gitdir:` line ends the walk with null, as git itself gives up there.
 */
export function findWorkTreeTop(dir: string): WorkTreeTop | null {
  let current = resolve(dir);
  for (;;) {
    const marker = resolve(current, '.git');
    const kind = entryKind(marker);
    if (kind === 'dir' && isGitDirectory(marker)) return { top: current, gitDir: marker, linked: false };
    if (kind === 'file') {
      const gitDir = readGitDirLine(marker);
      if (gitDir === null) return null;
      const absolute = resolve(current, gitDir);
      const owner = ownerOf(absolute);
      return { top: current, gitDir: absolute, linked: true, ...(owner === null ? {} : { owner }) };
    }
    const parent = dirname(current);
    if (parent === current) return null;
    current = parent;
  }
}

/**
 * git's own test (setup.c, is_git_directory): a `HEAD`, and `objects/` and `refs/` folders, or a
 * `commondir` file naming where they are (a linked worktree's git directory).
 */
export function isGitDirectory(path: string): boolean {
  if (entryKind(resolve(path, 'HEAD')) !== 'file') return false;
  if (entryKind(resolve(path, 'commondir')) === 'file') return true;
  return entryKind(resolve(path, 'objects')) === 'dir' && entryKind(resolve(path, 'refs')) === 'dir';
}

/**
 * The main work tree whose git directory a `.git` file names outright (`gitdir: /x/.git`): such a
 * folder shares that checkout's HEAD and index, so it writes that repository. A linked worktree's
 * own git directory (it has a `commondir`) and a submodule's answer for themselves: null.
 */
function ownerOf(gitDir: string): string | null {
  if (entryKind(resolve(gitDir, 'commondir')) !== null) return null;
  return basename(gitDir) === '.git' ? dirname(gitDir) : null;
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
