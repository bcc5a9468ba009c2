import { basename, dirname, posix, resolve, sep } from 'node:path';

/** Where git resolves a pathspec: the directory it runs in, and the top of its work tree (null: not known). */
export interface PathspecBase {
  directory: string; // absolute
  top: string | null;
}

/** How globs in a pathspec read: git's default, or literally (`--literal-pathspecs`, `--noglob-pathspecs`). */
export type GlobReading = 'glob' | 'literal';

/**
 * True when a pathspec covers the whole work tree, or from a sub-folder everything below it, by
 * what it resolves to rather than how it is spelled: `.`, `./`, `sub/..`, `./sub/../`, `..` (while
 * inside the work tree), the absolute path of the directory or of one above it in the work tree,
 * `:/` and `:(top)` (the top, and from below it any folder above the directory), a glob that
 * matches every name (`*`, `?*`, `**`) in such a folder, and a pathspec that only excludes (`:!x`,
 * `:^x`, `:(exclude)x`), which git applies to everything but `x`. Without a base, relative
 * pathspecs are resolved by their spelling alone. A pathspec above the top of the work tree makes
 * git stop ("outside repository"): not a whole-tree pathspec.
 */
export function isWholeTreePathspec(
  pathspec: string,
  base: PathspecBase | null = null,
  globs: GlobReading = 'glob',
): boolean {
  const { magic, path } = splitMagic(pathspec);
  if (magic.some((word) => word === 'exclude' || word === '!' || word === '^')) return true;
  const fromTop = magic.some((word) => word === 'top' || word === '/');
  const literal = magic.includes('literal') || (globs === 'literal' && !magic.includes('glob'));
  if (base === null) return coversByShape(path, fromTop, literal);
  const root = fromTop ? base.top : base.directory;
  if (root === null) return coversByShape(path, fromTop, literal);
  const resolved = resolve(root, path);
  const folder = !literal && matchesEveryName(basename(resolved)) ? dirname(resolved) : resolved;
  const inside = base.top === null || isAtOrBelow(folder, base.top);
  return inside && isAtOrBelow(base.directory, folder);
}

/** Without a base: a relative path made of `.` and `..` only, perhaps ending in a glob that matches every name. */
function coversByShape(path: string, fromTop: boolean, literal: boolean): boolean {
  if (posix.isAbsolute(path)) return false;
  const parts = posix.normalize(path === '' ? '.' : path).split('/');
  const last = parts[parts.length - 1] ?? '';
  if (!literal && matchesEveryName(last)) parts.pop();
  if (fromTop) return parts.every((part) => part === '' || part === '.');
  return parts.every((part) => part === '' || part === '.' || part === '..');
}

/** A glob that every name matches: `*` and `?` only, at least one `*`, at most one `?` (`*`, `**`, `?*`). */
function matchesEveryName(part: string): boolean {
  return /^[*?]+$/.test(part) && part.includes('*') && part.split('?').length <= 2;
}

function isAtOrBelow(path: string, folder: string): boolean {
  return (
    path === folder ||
    dirname(folder) === folder ||
    path.startsWith(folder.endsWith(sep) ? folder : `${folder}${sep}`)
  );
}

/** A pathspec's magic words (`:(top,icase)x`, `:/x`, `:!x`) and the path after them. */
function splitMagic(pathspec: string): { magic: string[]; path: string } {
  if (!pathspec.startsWith(':')) return { magic: [], path: pathspec };
  if (pathspec.startsWith(':(')) {
    const close = pathspec.indexOf(')');
    if (close === -1) return { magic: [], path: pathspec };
    return {
      magic: pathspec
        .slice(2, close)
        .split(',')
        .map((word) => word.trim()),
      path: pathspec.slice(close + 1),
    };
  }
  // Short magic: `:` then any of `/ ! ^`, up to an optional closing `:`.
  let at = 1;
  const magic: string[] = [];
  while (at < pathspec.length && '/!^'.includes(pathspec.charAt(at))) {
    magic.push(pathspec.charAt(at));
    at += 1;
  }
  if (pathspec.charAt(at) === ':') at += 1;
  return { magic, path: pathspec.slice(at) };
}
