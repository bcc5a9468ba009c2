// The text of the loader at the head of every kit hook bundle (hookBundle in the workspace's
// tsup.base.ts puts it there, then the sections). Kept as text, not as code: the build copies it
// into each bundle as it is, also from the preset @kit/shell-segments/bundle packages. It holds no
// backslash, backtick or placeholder, so the template below carries it verbatim.

/** The loader's source: it compiles the bundle's body from its comment with Node's compile cache on. */
export const bundleLoaderSource: string = `'use strict';
// The start of every kit hook bundle (hookBundle in tsup.base.ts appends the sections). The
// bundle's code (the body) rides below this loader in a comment, the body section: V8 skips a
// comment for a fraction of what compiling the same code costs. The loader turns Node's compile
// cache on (Node 22 and later) in the user's own cache folder, then compiles the body under this
// file's name, so that the cache keeps its compiled form between calls. Node keys that cache by its
// version, V8's flags and a hash of the body's text, and checks its own data: a cache made under
// other flags, for another body or damaged is not used, and nothing but the body's own text ever
// runs. Where the folder is not the user's own, or cannot be made, the body compiles as it would
// have inline. Nothing here may throw but the body itself.
const fs = require('node:fs');

const bodyMarker = '/*kit-hook-section:body:';

// os.tmpdir()'s POSIX rule, without loading node:os on every call (about 1.5 ms).
function tempFolder() {
  if (process.platform === 'win32') return require('node:os').tmpdir();
  const env = process.env;
  const named = env.TMPDIR || env.TMP || env.TEMP || '/tmp';
  return named.length > 1 && named.endsWith('/') ? named.slice(0, -1) : named;
}

// The cache is used only in a folder no other user could have written to.
function ownCacheFolder() {
  try {
    const temp = tempFolder();
    if (!temp.startsWith('/') && process.platform !== 'win32') return undefined; // a relative TMPDIR
    const uid = typeof process.getuid === 'function' ? process.getuid() : null;
    const folder = require('node:path').join(temp, 'kit-code-cache-' + (uid === null ? 'user' : uid));
    fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
    const stat = fs.lstatSync(folder);
    if (!stat.isDirectory()) return undefined;
    if (uid !== null && (stat.uid !== uid || (stat.mode & 0o022) !== 0)) return undefined;
    return folder;
  } catch {
    return undefined;
  }
}

function enableCache() {
  const { enableCompileCache } = require('node:module');
  if (typeof enableCompileCache !== 'function') return; // Node before 22.1
  const folder = ownCacheFolder();
  if (folder === undefined) return;
  try {
    enableCompileCache(folder);
  } catch {
    // no compile cache: the body compiles as usual
  }
}

function readBody() {
  const text = fs.readFileSync(__filename, 'latin1');
  const start = text.lastIndexOf(bodyMarker) + bodyMarker.length;
  return Buffer.from(text.slice(start, text.indexOf('*/', start)), 'base64').toString('utf8');
}

enableCache();
// The body runs as this module: its require, __filename and module are this file's own.
module._compile(readBody(), __filename);
`;
