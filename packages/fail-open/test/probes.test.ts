import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { findUp, findWorkTreeTop, onPath, tempFolderOf } from '../src/index.ts';

/** An inline tree in a temp folder: paths ending in '/' are folders, '+x' marks an executable. */
function tempTree(tree: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'fail-open-probe-'));
  for (const [path, content] of Object.entries(tree)) {
    const executable = path.endsWith('+x');
    const clean = executable ? path.slice(0, -2) : path;
    if (clean.endsWith('/')) {
      mkdirSync(join(root, clean), { recursive: true });
      continue;
    }
    mkdirSync(join(root, clean, '..'), { recursive: true });
    writeFileSync(join(root, clean), content);
    chmodSync(join(root, clean), executable ? 0o755 : 0o644);
  }
  return root;
}

describe('onPath', () => {
  const root = tempTree({
    'a/tool+x': '',
    'b/tool+x': '',
    'a/plain': '',
    'a/dir-named/': '',
    'w/dnx.EXE': '',
    'w/run.CMD': '',
    'w/dnx': '',
  });
  const env = { PATH: [join(root, 'a'), join(root, 'b')].join(delimiter) };

  test('finds the first executable on PATH', () =>
    expect(onPath('tool', env, 'linux')).toBe(join(root, 'a', 'tool')));
  test.for([
    ['a file without an execute bit', 'plain'],
    ['a folder', 'dir-named'],
    ['a name not on PATH', 'missing'],
    ['a name with a separator', 'a/tool'],
    ['an empty name', ''],
  ])('null for %s', ([, name]) => expect(onPath(name as string, env, 'linux')).toBeNull());
  test('null without PATH, and empty PATH entries are not the current folder', () => {
    expect(onPath('tool', {}, 'linux')).toBeNull();
    expect(onPath('tool', { PATH: `${delimiter}${delimiter}` }, 'linux')).toBeNull();
  });
  test('win32: PATHEXT extensions are tried, Path is read in any case', () => {
    const winEnv = { Path: join(root, 'w'), PATHEXT: '.EXE;.CMD' };
    expect(onPath('dnx', winEnv, 'win32')).toBe(join(root, 'w', 'dnx.EXE'));
    // This test runs on case-sensitive file systems too, so the files carry PATHEXT's own case.
    expect(onPath('run', winEnv, 'win32')).toBe(join(root, 'w', 'run.CMD'));
    expect(onPath('run.CMD', winEnv, 'win32')).toBe(join(root, 'w', 'run.CMD'));
    expect(onPath('missing', winEnv, 'win32')).toBeNull();
  });
});

describe('findWorkTreeTop', () => {
  test('a .git folder marks the top', () => {
    const root = tempTree({ 'repo/.git/': '', 'repo/src/deep/': '' });
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
  test('no marker up to the root: null', () => {
    const root = tempTree({ 'plain/': '' });
    expect(findWorkTreeTop(join(root, 'plain'))).toBeNull();
  });
});

describe('findUp', () => {
  const root = tempTree({ 'a/marker.slnx': '', 'a/b/c/d/': '', 'a/file': '' });
  const slnx = (_dir: string, entries: string[]) => entries.find((e) => e.endsWith('.slnx')) ?? null;

  test('finds the nearest folder with a match', () => {
    expect(findUp(join(root, 'a', 'b', 'c', 'd'), slnx)).toEqual({
      dir: join(root, 'a'),
      found: 'marker.slnx',
    });
  });
  test('stopAt is the last folder examined', () => {
    expect(findUp(join(root, 'a', 'b', 'c', 'd'), slnx, { stopAt: join(root, 'a', 'b') })).toBeNull();
    expect(findUp(join(root, 'a', 'b', 'c', 'd'), slnx, { stopAt: join(root, 'a') })).toEqual({
      dir: join(root, 'a'),
      found: 'marker.slnx',
    });
  });
  test('maxLevels cuts the walk short: exhausted', () => {
    expect(findUp(join(root, 'a', 'b', 'c', 'd'), slnx, { maxLevels: 2 })).toEqual({ exhausted: true });
    expect(findUp(join(root, 'a', 'b', 'c', 'd'), slnx, { maxLevels: 4 })).toEqual({
      dir: join(root, 'a'),
      found: 'marker.slnx',
    });
  });
  test('no match up to the root: null', () => expect(findUp(root, () => null)).toBeNull());
  test('a folder that cannot be listed is skipped, not thrown', () => {
    const seen: string[][] = [];
    const outcome = findUp(join(root, 'a', 'file'), (dir, entries) => {
      seen.push(entries);
      return entries.includes('marker.slnx') ? dir : null;
    });
    expect(seen[0]).toEqual([]);
    expect(outcome).toEqual({ dir: join(root, 'a'), found: join(root, 'a') });
  });
});

describe('tempFolderOf', () => {
  test.for([
    ['TMPDIR on POSIX', { TMPDIR: '/t/posix', TEMP: 'C:\\w' }, 'linux', '/t/posix'],
    [
      'TEMP on Windows, over TMP and TMPDIR',
      { TEMP: 'C:\\temp', TMP: 'C:\\tmp', TMPDIR: '/t' },
      'win32',
      'C:\\temp',
    ],
    ['TMP on Windows without TEMP', { TMP: 'C:\\tmp' }, 'win32', 'C:\\tmp'],
  ] as const)('the env names it: %s', ([, env, platform, expected]) => {
    expect(tempFolderOf(env, platform)).toBe(expected);
  });

  test.for([
    ['nothing named on POSIX', {}, 'linux'],
    ['an empty TMPDIR', { TMPDIR: '' }, 'linux'],
    ['TEMP ignored on POSIX', { TEMP: '/elsewhere' }, 'darwin'],
    ['TMPDIR ignored on Windows', { TMPDIR: '/elsewhere' }, 'win32'],
  ] as const)('else os.tmpdir(): %s', ([, env, platform]) => {
    expect(tempFolderOf(env, platform)).toBe(tmpdir());
  });
});
