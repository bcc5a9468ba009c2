import { join } from 'node:path';
import type { GuardContext } from './context.ts';

/** Where the evidence lives, relative to the top of a work tree. */
export const profileRelativePath = '.claude/skills/repo-profile.md';

/** A repository the kit manages: the top of its work tree, and the profile found there. */
export interface ManagedRepository {
  top: string;
  profile: string; // absolute path of .claude/skills/repo-profile.md
}

/**
 * The evidence probe: the repository holding `dir` is managed when the top of its work tree has
 * `.claude/skills/repo-profile.md` as a regular file. A linked worktree's top is its own folder
 * (the one holding the `.git` file), not the main checkout: the profile is committed, so each
 * worktree carries its own copy. No subprocess: a walk up to `.git` and one stat.
 */
export function probeRepository(dir: string, context: GuardContext): ManagedRepository | null {
  const top = context.findWorkTreeTop(dir);
  if (top === null) return null;
  const profile = join(top, profileRelativePath);
  return context.isFile(profile) ? { top, profile } : null;
}
