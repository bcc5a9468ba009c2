import path from 'node:path';
import { tempTree } from '@kit/test-kit';
import { describe, expect, test } from 'vitest';
import { evaluate } from '../src/evaluate.ts';
import { defaultMarkerSearchLimits, findProjectMarker, markerIn } from '../src/project-marker.ts';
import {
  envWithPath,
  fakeListFolder,
  filesBelow,
  readCall,
  realFsContext,
  stubLauncherFolder,
} from './helpers.ts';

const { posix, win32 } = path;
const nested = (levels: number) => Array.from({ length: levels }, (_, i) => `d${i}`).join('/');

describe('markerIn', () => {
  // A name ending in '/' is a folder.
  const entries = (...names: string[]) =>
    names.map((name) => ({ name: name.replace(/\/$/, ''), isFolder: name.endsWith('/') }));
  test.for([
    [['b.csproj', 'a.csproj', 'All.sln'], 'a.csproj'],
    [['All.sln', 'Other.sln'], 'All.sln'],
    [['All.slnx', 'App.sln'], 'App.sln'],
    [['APP.CSPROJ'], 'APP.CSPROJ'],
  ] as const)('%j -> %s', ([names, want]) => {
    expect(markerIn(entries(...names))?.name).toBe(want);
  });
  test.for([
    [['All.slnx']],
    [['.csproj', '.sln']],
    [['Fake.csproj/']],
    [['App.csproj.user', 'x.sln.DotSettings']],
    [[]],
  ] as const)('%j -> none', ([names]) => {
    expect(markerIn(entries(...names))).toBeNull();
  });
});

describe("the walk up is bounded: 40 folders, the file's own included", () => {
  // The file's folder is 39 levels below the marker's: the marker's folder is the 40th examined.
  test.for([
    [39, 'found'],
    [40, 'too-deep'],
    [60, 'too-deep'],
  ] as const)('a .csproj %i levels up: %s', ([levels, want]) => {
    const fileDir = `/deep/${nested(levels)}`;
    const listFolder = fakeListFolder(['/deep/P.csproj', `${fileDir}/Thing.cs`], posix);
    const search = findProjectMarker(fileDir, '/', posix, listFolder);
    expect(search.found ? 'found' : search.reason).toBe(want);
  });

  test('a short path reaches the root without running out of levels', () => {
    const listFolder = fakeListFolder(['/a/b/Thing.cs', '/cwd/README.md'], posix);
    expect(findProjectMarker('/a/b', '/cwd', posix, listFolder)).toEqual({
      found: false,
      reason: 'unmarked',
    });
  });

  test('on the real file system: beyond 40 levels is no opinion, 39 levels is a deny', () => {
    const root = tempTree({ 'P.csproj': '', [`${nested(39)}/Near.cs`]: '', [`${nested(45)}/Far.cs`]: '' });
    const { context, temp } = realFsContext(envWithPath([stubLauncherFolder()]));
    expect(evaluate(readCall(path.join(root, nested(39), 'Near.cs'), root), context).kind).toBe('deny');
    const far = evaluate(readCall(path.join(root, nested(45), 'Far.cs'), root), context);
    expect(far).toEqual({ kind: 'cannotJudge', cause: 'too-deep' });
    expect(filesBelow(temp)).toHaveLength(1); // Near.cs's marker only
  });
});

describe('an unreadable folder is a doubt, never "unmarked"', () => {
  test.for([
    ["the file's own folder", ['/r/src']],
    ['a folder on the way up', ['/r']],
    ['the cwd', ['/cwd']],
    ['a folder below the cwd', ['/cwd/sub']],
  ] as [string, string[]][])('%s', ([, unreadable]) => {
    const listFolder = fakeListFolder(['/r/src/Thing.cs', '/cwd/sub/x/notes.txt'], posix, unreadable);
    expect(findProjectMarker('/r/src', '/cwd', posix, listFolder)).toMatchObject({
      found: false,
      reason: 'unreadable-folder',
    });
  });

  test('the control: all readable is a plain "unmarked"', () => {
    const listFolder = fakeListFolder(['/r/src/Thing.cs', '/cwd/sub/x/notes.txt'], posix);
    expect(findProjectMarker('/r/src', '/cwd', posix, listFolder)).toEqual({
      found: false,
      reason: 'unmarked',
    });
  });

  test('a marker met before the unreadable folder still counts', () => {
    const listFolder = fakeListFolder(['/r/src/P.csproj', '/r/src/Thing.cs'], posix, ['/r']);
    expect(findProjectMarker('/r/src', '/cwd', posix, listFolder)).toMatchObject({
      found: true,
      marker: '/r/src/P.csproj',
    });
  });
});

describe('the cwd fallback', () => {
  test('is breadth first: the shallowest marker wins', () => {
    const listFolder = fakeListFolder(['/x/Thing.cs', '/cwd/a/b/Deep.csproj', '/cwd/z/Shallow.sln'], posix);
    expect(findProjectMarker('/x', '/cwd', posix, listFolder)).toEqual({
      found: true,
      marker: '/cwd/z/Shallow.sln',
      kind: 'sln',
      via: 'cwd',
    });
  });

  test('a tree too big to list in time is a doubt', () => {
    const files = Array.from({ length: 50 }, (_, i) => `/cwd/f${i}/notes.txt`).concat('/x/Thing.cs');
    const listFolder = fakeListFolder(files, posix);
    const limits = { ...defaultMarkerSearchLimits, maxFoldersDown: 20 };
    expect(findProjectMarker('/x', '/cwd', posix, listFolder, limits)).toMatchObject({
      found: false,
      reason: 'too-many-folders',
    });
    expect(findProjectMarker('/x', '/cwd', posix, listFolder)).toEqual({ found: false, reason: 'unmarked' });
  });
});

describe('Windows paths', () => {
  test('walk up with backslashes and a drive letter', () => {
    const listFolder = fakeListFolder(
      ['C:\\repo\\src\\App\\App.csproj', 'C:\\repo\\src\\App\\Models\\User.CS'],
      win32,
    );
    expect(findProjectMarker('C:\\repo\\src\\App\\Models', 'C:\\repo', win32, listFolder)).toEqual({
      found: true,
      marker: 'C:\\repo\\src\\App\\App.csproj',
      kind: 'csproj',
      via: 'walk-up',
    });
  });

  test('a UNC share', () => {
    const listFolder = fakeListFolder(
      ['\\\\server\\share\\App\\App.sln', '\\\\server\\share\\App\\src\\A.cs'],
      win32,
    );
    expect(findProjectMarker('\\\\server\\share\\App\\src', null, win32, listFolder)).toMatchObject({
      found: true,
      kind: 'sln',
    });
  });
});
