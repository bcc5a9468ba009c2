import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { absoluteFilePath, isCSharpSource, pathFlavorOf } from '../src/csharp-path.ts';

describe('isCSharpSource', () => {
  test.for([
    '/repo/src/Program.cs',
    'Program.cs',
    'a\\b\\C.CS',
    'C:\\repo\\src\\Foo.Cs',
    'C:/repo/src/Foo.cS',
    '\\\\server\\share\\x.cs',
    '/repo/dir.with.dots/File.g.cs',
    '/repo/.cs/Real.cs',
  ])('%s is C# source', (file) => expect(isCSharpSource(file)).toBe(true));

  test.for([
    '/repo/App.csproj',
    '/repo/Index.razor',
    '/repo/Index.cshtml',
    '/repo/script.csx',
    '/repo/README.md',
    '/repo/.cs',
    'a\\b\\.CS',
    '/repo/Program.cs/',
    'C:\\repo\\Program.cs\\',
    '/repo/Program.cs.orig',
    '/repo/Programcs',
    '',
    'a\\b\\C.CSX',
  ])('%s is not', (file) => expect(isCSharpSource(file)).toBe(false));
});

describe('pathFlavorOf', () => {
  test.for([
    ['C:\\repo\\A.cs', 'linux', 'win32'],
    ['C:/repo/A.cs', 'linux', 'win32'],
    ['\\\\server\\share\\A.cs', 'darwin', 'win32'],
    ['a\\b\\C.CS', 'linux', 'win32'],
    ['/repo/A.cs', 'linux', 'posix'],
    ['/repo/odd\\name/A.cs', 'linux', 'posix'],
    ['/repo/A.cs', 'win32', 'win32'],
  ] as const)('%s on %s: %s', ([file, platform, want]) => {
    expect(pathFlavorOf(file, platform)).toBe(want === 'win32' ? path.win32 : path.posix);
  });
});

describe('absoluteFilePath', () => {
  test('an absolute path is kept (normalized)', () => {
    expect(absoluteFilePath('C:\\repo\\src\\..\\A.cs', null, path.win32)).toBe('C:\\repo\\A.cs');
    expect(absoluteFilePath('/repo/./A.cs', null, path.posix)).toBe('/repo/A.cs');
  });
  test('a relative one is joined to an absolute cwd of the same flavor', () => {
    expect(absoluteFilePath('a\\b\\C.CS', 'D:\\work', path.win32)).toBe('D:\\work\\a\\b\\C.CS');
    expect(absoluteFilePath('src/A.cs', '/work', path.posix)).toBe('/work/src/A.cs');
  });
  test('a relative one with no absolute cwd cannot be placed', () => {
    expect(absoluteFilePath('a\\b\\C.CS', null, path.win32)).toBeNull();
    expect(absoluteFilePath('src/A.cs', 'work', path.posix)).toBeNull();
  });
});
