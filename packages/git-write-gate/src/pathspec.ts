/**
 * True when a pathspec covers the whole work tree (or, from a sub-folder, everything below it):
 * `.`, `./`, `..`, `:/`, `:(top)`, `*`, `**`, any mix of those, and a pathspec that only excludes
 * (`:!x`, `:^x`, `:(exclude)x`), which git applies to everything but `x`.
 */
export function isWholeTreePathspec(pathspec: string): boolean {
  const { magic, path } = splitMagic(pathspec);
  if (magic.some((word) => word === 'exclude' || word === '!' || word === '^')) return true;
  return path.split('/').every((part) => part === '' || part === '.' || part === '..' || /^\*+$/.test(part));
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
