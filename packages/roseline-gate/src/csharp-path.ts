import path from 'node:path';

/**
 * What a path names on disk, through symbolic links: a regular file, nothing (yet), something that
 * is not a file (a folder, a device, a FIFO), or cannot tell (no permission, a link loop).
 */
export type PathKind = 'file' | 'missing' | 'not-a-file' | 'unknown';

/** The path functions of one flavor: node's posix or win32 set. */
export type PathFlavor = typeof path.posix;

// Both separators split, whatever the platform: the host sends backslashes on Windows, and a
// payload replayed on another machine (explain, tests) keeps them.
const lastSeparator = /[\\/]/g;

/**
 * True for a C# source file: the base name ends in `.cs`, in any case (`Foo.cs`, `a\\b\\C.CS`).
 * `.csproj`, `.razor`, `.cshtml`, `.csx`, `.md` and a bare `.cs` (no name before the dot) are not.
 */
export function isCSharpSource(filePath: string): boolean {
  const base = filePath.split(lastSeparator).pop() ?? '';
  return base.length > 3 && base.toLowerCase().endsWith('.cs');
}

/**
 * The path flavor a file path is written in: win32 for a drive letter (`C:\`, `C:/`), a UNC or
 * rooted backslash path, a path with backslashes and no forward slash, or any path on Windows;
 * posix otherwise.
 */
export function pathFlavorOf(filePath: string, platform: NodeJS.Platform): PathFlavor {
  if (platform === 'win32') return path.win32;
  if (/^[A-Za-z]:[\\/]/.test(filePath) || filePath.startsWith('\\')) return path.win32;
  if (filePath.includes('\\') && !filePath.includes('/')) return path.win32;
  return path.posix;
}

/**
 * The absolute form of the Read's `file_path`: as given when absolute, else joined to `cwd` when
 * that is absolute in the same flavor; null when neither is (a path the gate cannot place).
 */
export function absoluteFilePath(filePath: string, cwd: string | null, flavor: PathFlavor): string | null {
  if (flavor.isAbsolute(filePath)) return flavor.normalize(filePath);
  if (cwd !== null && flavor.isAbsolute(cwd)) return flavor.join(cwd, filePath);
  return null;
}
