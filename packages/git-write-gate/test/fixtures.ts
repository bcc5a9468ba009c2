import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const quietGit = {
  stdio: 'ignore' as const,
  env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
};

/** Runs real git in a folder (no user config). */
export function git(cwd: string, ...args: string[]): void {
  execFileSync(
    'git',
    ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'init.defaultBranch=main', ...args],
    { ...quietGit, cwd },
  );
}

/** Writes files (path → text) under a folder, creating the folders on the way. */
export function writeTree(root: string, tree: Record<string, string>): void {
  for (const [path, text] of Object.entries(tree)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

export const profileText =
  '---\nname: repo-profile\ngit-write-gate:\n  commit: scripts/guarded-commit.sh -C <worktree> <branch> -- <git commit args>\n---\n';

/**
 * The fixture repositories, made in a temp folder with real git: managed (a committed profile and
 * replacement script, a nested sub-folder), plain (no profile), a linked worktree of the managed
 * repository made with `git worktree add`, a worktree of a commit from before the profile existed,
 * and an unmanaged folder outside any repository.
 */
export function makeFixtures(): {
  root: string;
  managed: string;
  nested: string;
  plain: string;
  worktree: string;
  oldWorktree: string;
  outside: string;
  cleanup: () => void;
} {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'git-write-gate-')));
  const managed = join(root, 'managed');
  const plain = join(root, 'plain');
  const outside = join(root, 'outside');
  mkdirSync(managed);
  mkdirSync(plain);
  mkdirSync(outside);
  git(managed, 'init', '-q');
  writeTree(managed, { 'README.md': 'old\n' });
  git(managed, 'add', '-A');
  git(managed, 'commit', '-q', '-m', 'before the profile');
  git(managed, 'tag', 'before-profile');
  writeTree(managed, {
    '.claude/skills/repo-profile.md': profileText,
    'scripts/guarded-commit.sh': '#!/bin/sh\n',
    'src/deep/nested/file.ts': 'x\n',
  });
  git(managed, 'add', '-A');
  git(managed, 'commit', '-q', '-m', 'profile');
  const worktree = join(root, 'managed-worktree');
  git(managed, 'worktree', 'add', '-q', '-b', 'feature', worktree);
  const oldWorktree = join(root, 'old-worktree');
  git(managed, 'worktree', 'add', '-q', '--detach', oldWorktree, 'before-profile');
  git(plain, 'init', '-q');
  return {
    root,
    managed,
    nested: join(managed, 'src', 'deep', 'nested'),
    plain,
    worktree,
    oldWorktree,
    outside,
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}
