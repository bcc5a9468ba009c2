import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { git, initRepo, tempDir, writeTree } from '@kit/test-kit';

export const profileText =
  '---\nname: repo-profile\ngit-write-gate:\n  commit: scripts/guarded-commit.sh -C <worktree> <branch> -- <git commit args>\n---\n';

/**
 * The fixture repositories, made in temp folders with real git: managed (a committed profile and
 * replacement script, a nested sub-folder), plain (no profile), a linked worktree of the managed
 * repository made with `git worktree add`, a worktree of a commit from before the profile existed,
 * and an unmanaged folder outside any repository. Make them while the tests are collected: they are
 * removed after the suite.
 */
export function makeFixtures(): {
  root: string;
  managed: string;
  nested: string;
  plain: string;
  worktree: string;
  oldWorktree: string;
  outside: string;
} {
  const root = tempDir('git-write-gate');
  const managed = initRepo(join(root, 'managed'), { 'README.md': 'old\n' });
  const plain = initRepo(join(root, 'plain'));
  const outside = join(root, 'outside');
  mkdirSync(outside);
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
  return {
    root,
    managed,
    nested: join(managed, 'src', 'deep', 'nested'),
    plain,
    worktree,
    oldWorktree,
    outside,
  };
}
