import { tmpdir } from 'node:os';
import { delimiter, isAbsolute, join, relative } from 'node:path';
import { executable, tempTree } from '@kit/test-kit';
import { describe, expect, test } from 'vitest';
import { onPath, readTextFile, tempFolderOf } from '../src/index.ts';

describe('onPath', () => {
  const root = tempTree({
    'a/tool': executable(''),
    'b/tool': executable(''),
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
  // Each relative spelling reaches the same folder from the test's own cwd, so a probe that searched
  // it would find the tool: the rows prove the entry is skipped, not that the folder is empty. On
  // Windows a temp folder on another drive than the cwd has no relative spelling.
  const fromHere = (folder: string) => relative(process.cwd(), join(root, folder));
  describe.skipIf(isAbsolute(fromHere('a')))(
    'a relative PATH entry proves nothing; the absolute entry after it does',
    () => {
      test.for([
        ['linux', 'a relative folder', [fromHere('a')], 'tool', null],
        ['linux', 'a ./ relative folder', [`./${fromHere('a')}`], 'tool', null],
        ['linux', '.', ['.'], 'tool', null],
        ['linux', 'bin', ['bin'], 'tool', null],
        ['linux', '~/bin (no tilde expansion)', ['~/bin'], 'tool', null],
        ['linux', 'relative, then absolute', [fromHere('a'), join(root, 'b')], 'tool', 'b/tool'],
        ['linux', 'the absolute folder alone', [join(root, 'a')], 'tool', 'a/tool'],
        ['win32', 'a relative folder', [fromHere('w')], 'dnx', null],
        ['win32', 'a quoted relative folder', [`"${fromHere('w')}"`], 'dnx', null],
        ['win32', 'a drive-relative folder', ['C:w'], 'dnx', null],
        ['win32', 'the absolute folder', [join(root, 'w')], 'dnx', 'w/dnx.EXE'],
      ] as const)('%s: %s', ([platform, , entries, name, found]) => {
        const pathEnv = { PATH: entries.join(platform === 'win32' ? ';' : ':'), PATHEXT: '.EXE' };
        expect(onPath(name, pathEnv, platform)).toBe(found === null ? null : join(root, found));
      });
      test('the control: the relative spelling does reach the tool from here', () => {
        expect(onPath('tool', { PATH: join(process.cwd(), fromHere('a')) }, 'linux')).toBe(
          join(root, 'a', 'tool'),
        );
      });
    },
  );
  test('win32: PATHEXT extensions are tried, Path is read in any case', () => {
    const winEnv = { Path: join(root, 'w'), PATHEXT: '.EXE;.CMD' };
    expect(onPath('dnx', winEnv, 'win32')).toBe(join(root, 'w', 'dnx.EXE'));
    // This test runs on case-sensitive file systems too, so the files carry PATHEXT's own case.
    expect(onPath('run', winEnv, 'win32')).toBe(join(root, 'w', 'run.CMD'));
    expect(onPath('run.CMD', winEnv, 'win32')).toBe(join(root, 'w', 'run.CMD'));
    expect(onPath('missing', winEnv, 'win32')).toBeNull();
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
    // os.tmpdir()'s own POSIX rule, read from the env given (a served call's), never the process's.
    ['TMP on POSIX without TMPDIR', { TMP: '/t/tmp', TEMP: '/t/temp' }, 'linux', '/t/tmp'],
    ['TEMP on POSIX without TMPDIR or TMP', { TEMP: '/t/temp' }, 'darwin', '/t/temp'],
    ['one trailing slash dropped', { TMPDIR: '/t/posix/' }, 'linux', '/t/posix'],
    ['a relative TMPDIR stays relative (the caller refuses it)', { TMPDIR: 'tmp' }, 'linux', 'tmp'],
    ['nothing named on POSIX: /tmp, without node:os', {}, 'linux', '/tmp'],
    ['an empty TMPDIR', { TMPDIR: '' }, 'linux', '/tmp'],
  ] as const)('the env names it: %s', ([, env, platform, expected]) => {
    expect(tempFolderOf(env, platform)).toBe(expected);
  });

  test.for([['TMPDIR ignored on Windows', { TMPDIR: '/elsewhere' }, 'win32']] as const)(
    'else os.tmpdir(): %s',
    ([, env, platform]) => {
      expect(tempFolderOf(env, platform)).toBe(tmpdir());
    },
  );
});

describe('readTextFile', () => {
  const root = tempTree({ 'notes.txt': 'hi', 'folder/': '' });
  test('the text', () => expect(readTextFile(join(root, 'notes.txt'))).toEqual({ ok: true, value: 'hi' }));
  test.for([
    ['a missing file', 'missing.txt', 'absent'],
    ['a path through a file', 'notes.txt/x', 'absent'],
    ['a folder', 'folder', 'unreadable'],
  ] as const)('%s is %s', ([, path, reason]) => {
    expect(readTextFile(join(root, path))).toMatchObject({ ok: false, reason });
  });
});
