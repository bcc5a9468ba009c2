import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempTree } from '@kit/test-kit';
import { describe, expect, test } from 'vitest';
import { findWorkTreeTop } from '../src/work-tree.ts';

describe('findWorkTreeTop', () => {
  test('a .git folder marks the top', () => {
    const root = tempTree({
      'repo/.git/HEAD': 'ref: refs/heads/main\n',
      'repo/.git/objects/': '',
      'repo/.git/refs/': '',
      'repo/src/deep/': '',
    });
    expect(findWorkTreeTop(join(root, 'repo', 'src', 'deep'))).toEqual({
      top: join(root, 'repo'),
      gitDir: join(root, 'repo', '.git'),
      linked: false,
    });
  });
  test('a .git file with gitdir: is a linked worktree or submodule (relative and absolute)', () => {
    const root = tempTree({
      'main/.git/worktrees/wt/': '',
      'wt/.git': 'gitdir: ../main/.git/worktrees/wt\n',
      'wt/sub/': '',
    });
    expect(findWorkTreeTop(join(root, 'wt', 'sub'))).toEqual({
      top: join(root, 'wt'),
      gitDir: join(root, 'main', '.git', 'worktrees', 'wt'),
      linked: true,
    });
    writeFileSync(join(root, 'wt', '.git'), `gitdir: ${join(root, 'elsewhere')}\r\n`);
    expect(findWorkTreeTop(join(root, 'wt'))?.gitDir).toBe(join(root, 'elsewhere'));
  });
  test('the nearest marker wins (a submodule inside a repository)', () => {
    const root = tempTree({
      'outer/.git/': '',
      'outer/mod/.git': 'gitdir: ../.git/modules/mod',
      'outer/mod/x/': '',
    });
    expect(findWorkTreeTop(join(root, 'outer', 'mod', 'x'))?.top).toBe(join(root, 'outer', 'mod'));
  });
  test('a .git file without gitdir: is no work tree', () => {
    const root = tempTree({ 'broken/.git': 'not a gitfile\n' });
    expect(findWorkTreeTop(join(root, 'broken'))).toBeNull();
  });
  test('a .git folder that is not a git directory (an empty decoy) is skipped, as git skips it', () => {
    const root = tempTree({
      'repo/.git/HEAD': 'ref: refs/heads/main\n',
      'repo/.git/objects/': '',
      'repo/.git/refs/': '',
      'repo/decoy/.git/': '',
      'repo/decoy/x/': '',
      'repo/half/.git/HEAD': 'ref: refs/heads/main\n',
    });
    expect(findWorkTreeTop(join(root, 'repo', 'decoy', 'x'))?.top).toBe(join(root, 'repo'));
    expect(findWorkTreeTop(join(root, 'repo', 'half'))?.top).toBe(join(root, 'repo'));
    expect(findWorkTreeTop(join(root, 'repo'))?.top).toBe(join(root, 'repo'));
  });
  test("a .git file naming another checkout's .git folder is owned by that checkout; a linked worktree is not", () => {
    const root = tempTree({
      'main/.git/HEAD': 'ref: refs/heads/main\n',
      'main/.git/worktrees/wt/commondir': '../..\n',
      'borrower/.git': 'gitdir: ../main/.git\n',
      'wt/.git': 'gitdir: ../main/.git/worktrees/wt\n',
    });
    expect(findWorkTreeTop(join(root, 'borrower'))?.owner).toBe(join(root, 'main'));
    expect(findWorkTreeTop(join(root, 'wt'))?.owner).toBeUndefined();
  });
  test('no marker up to the root: null', () => {
    const root = tempTree({ 'plain/': '' });
    expect(findWorkTreeTop(join(root, 'plain'))).toBeNull();
  });
});
