import { isAbsolute, join } from 'node:path';
import type { GuardContext } from './context.ts';
import { defaultProfile, parseProfile, type RepoProfile } from './profile.ts';
import type { WriteKind } from './write-kind.ts';

/** Where the evidence lives, relative to the top of a work tree: the record's flat path. */
export const profileRelativePath = '.claude/skills/repo-profile.md';
/** The layout Claude Code loads a project skill from (spec step 6): looked at first. */
export const skillRelativePath = '.claude/skills/repo-profile/SKILL.md';

/** A repository the kit manages: the top of its work tree, and the profile found there. */
export interface ManagedRepository {
  top: string;
  profile: string; // absolute path of .claude/skills/repo-profile.md
}

/**
 * The evidence probe: the repository holding `dir` is managed when the top of its work tree has
 * `.claude/skills/repo-profile.md` as a regular file. A linked worktree's top is its own folder
 * (the one holding the `.git` file), not the main checkout: the profile is committed, so each
 * worktree carries its own copy; where it does not, the repository its `gitdir:` belongs to
 * decides. No subprocess: a walk up to `.git` and a few stats.
 */
export function probeRepository(dir: string, context: GuardContext): ManagedRepository | null {
  const top = context.findWorkTreeTop(dir);
  if (top === null) return null;
  // A `.git` file pointing into a managed repository (a linked worktree without the profile, or
  // a decoy made on purpose) writes that repository: its profile is the evidence.
  const owner = context.ownerOf?.(top) ?? null;
  for (const folder of owner === null || owner === top ? [top] : [top, owner])
    for (const relative of [skillRelativePath, profileRelativePath]) {
      const profile = join(folder, relative);
      if (context.isFile(profile)) return { top, profile };
    }
  return null;
}

/**
 * The evidence probe and the profile, asked once per directory and per repository in one call.
 * `applies` is the question every step after the cwd asks: does the gate apply to a command
 * running in this directory?
 */
export interface RepositoryProbe {
  applies: (directory: string) => boolean;
  appliesEverywhere: boolean; // GIT_GATE=on: also where the line does not show the directory
  repository: (directory: string) => ManagedRepository | null;
  profileOf: (repository: ManagedRepository | null) => RepoProfile;
  /** The declared replacement for a kind of write, only when the file it starts with exists. */
  replacementFor: (
    repository: ManagedRepository | null,
    profile: RepoProfile,
    write: WriteKind,
  ) => string | null;
}

/** The default: the gate applies where the evidence probe finds a managed repository. */
export function managedProbe(context: GuardContext): RepositoryProbe {
  const memo = new ProbeMemo(context);
  return {
    applies: (directory) => memo.repository(directory) !== null,
    appliesEverywhere: false,
    repository: (directory) => memo.repository(directory),
    profileOf: (repository) => memo.profileOf(repository),
    replacementFor: (repository, profile, write) => memo.replacementFor(repository, profile, write),
  };
}

/** GIT_GATE=on: the probe is skipped and the gate applies everywhere; profiles are still read where found. */
export function everywhereProbe(context: GuardContext): RepositoryProbe {
  return { ...managedProbe(context), applies: () => true, appliesEverywhere: true };
}

class ProbeMemo {
  private readonly repositories = new Map<string, ManagedRepository | null>();
  private readonly profiles = new Map<string, RepoProfile>();

  constructor(private readonly context: GuardContext) {}

  repository(directory: string): ManagedRepository | null {
    if (!this.repositories.has(directory))
      this.repositories.set(directory, probeRepository(directory, this.context));
    return this.repositories.get(directory) ?? null;
  }

  profileOf(repository: ManagedRepository | null): RepoProfile {
    if (repository === null) return defaultProfile;
    let profile = this.profiles.get(repository.profile);
    if (profile === undefined) {
      const text = this.context.readText(repository.profile);
      profile = text.ok ? parseProfile(text.value) : defaultProfile;
      this.profiles.set(repository.profile, profile);
    }
    return profile;
  }

  replacementFor(
    repository: ManagedRepository | null,
    profile: RepoProfile,
    write: WriteKind,
  ): string | null {
    const declared = profile.replacements[write];
    if (declared === undefined || repository === null) return null;
    const program = declared.trim().split(/\s+/)[0] ?? '';
    if (program === '') return null;
    const path = isAbsolute(program) ? program : join(repository.top, program);
    return this.context.isFile(path) ? declared : null;
  }
}
