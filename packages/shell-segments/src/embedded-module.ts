import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, parse } from 'node:path';
import type { Script } from 'node:vm';
import { folderProblem, tempFolderOf, unwritableByOthers } from '@kit/fail-open';
import nodeBuiltins from './node-builtins.cjs';

/**
 * A CommonJS module carried as data inside a hook bundle (see hookBundle in tsup.base.ts): a way to
 * read its source, brotli-compressed, in base64, and a hash of the source taken at build time. As
 * data, so that starting the hook costs V8 no pre-parse of the module's code; the bundle keeps the
 * packed text in a comment after its code (a string literal would still be scanned whenever the
 * function holding it is compiled), and it is read, unpacked and compiled only when no code cache
 * carries the source.
 */
export interface EmbeddedModule {
  embedded: 'commonjs';
  name: string; // mvdan-sh
  readPacked: () => string; // the source, brotli-compressed, base64-encoded; may throw (then the load throws)
  sourceHash: string; // hex digest of the source, part of the code cache's file name
  sourceCrc32?: number; // CRC-32 of the source's UTF-8 bytes: a cache file may then carry the source unpacked
}

/** An embedded module's exports, and the code cache step for after its first real use. */
export interface LoadedModule {
  exports: unknown;
  usedCodeCache: boolean; // false: compiled from packed source, so saveCodeCache has something to write
  /**
   * Writes V8's code cache for the module when this load could not use one (missing, stale,
   * rejected). Call it after a first real use, so the functions V8 compiled lazily are in it.
   * Never throws: a cache that cannot be written is only a slower next start.
   */
  saveCodeCache(): void;
}

/** True for the value an embedded module's stand-in returns (as opposed to a module's exports). */
export function isEmbeddedModule(value: unknown): value is EmbeddedModule {
  const candidate = value as Partial<EmbeddedModule> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    candidate.embedded === 'commonjs' &&
    typeof candidate.readPacked === 'function' &&
    typeof candidate.name === 'string' &&
    typeof candidate.sourceHash === 'string'
  );
}

// Bump when the wrapper or the file name's layout changes: V8 checks only the source's length, not its text.
const cacheFormat = 4;

/**
 * The per-user folder for code caches under the OS temp folder: `kit-code-cache-<uid>`; undefined
 * (no cache) when the temp folder is not an absolute path: a relative TMPDIR would put the cache in
 * whatever folder the hook runs in, and `createRequire` refuses a relative path.
 */
export function defaultCacheDir(): string | undefined {
  const temp = tempFolderOf(process.env);
  if (!isAbsolute(temp)) return undefined;
  const user = typeof process.getuid === 'function' ? String(process.getuid()) : 'user';
  return join(temp, `kit-code-cache-${user}`);
}

// Where the module's `require` resolves from and what its stack frames name when there is no cache
// folder: an absolute path that needs no working folder (the file system's root of node's own path).
const noCacheHome = (): string => parse(process.execPath).root;

/**
 * Runs an embedded CommonJS module and returns its exports, compiled from V8's code cache in
 * `cacheDir` when a usable one is there. A cache that is missing, stale (another source, Node or
 * arch: another file name), damaged, rejected by V8, unreadable or in a folder that is not the
 * user's own is ignored and the source is compiled as usual. Only the module's own errors, and a
 * `readPacked` that throws, propagate (parse turns either into an outcome). Without `zlib.crc32`
 * (Node before 20.15) no cache is read or written, nor without a cache folder or with a relative one:
 * where the cache goes never decides whether the module loads.
 */
export function loadEmbeddedModule(
  embedded: EmbeddedModule,
  cacheDir: string | undefined = defaultCacheDir(),
): LoadedModule {
  const usableDir = cacheDir !== undefined && isAbsolute(cacheDir) ? cacheDir : undefined;
  const home = usableDir ?? noCacheHome();
  const file = join(home, cacheFileName(embedded));
  const filename = join(home, `${embedded.name}.js`);
  const cached =
    usableDir !== undefined && isOwnFolder(usableDir) ? readCodeCache(file, embedded) : undefined;
  const source = cached?.source ?? unpack(embedded);
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
  const script = compile(wrapped, filename, cached?.data);
  const module = { exports: {} as unknown };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  const moduleRequire = nodeBuiltins.module().createRequire(filename);
  run.call(module.exports, module.exports, moduleRequire, module, filename, home);
  const usedCodeCache = cached !== undefined && script.cachedDataRejected === false;
  let saved = usedCodeCache;
  return {
    exports: module.exports,
    usedCodeCache,
    saveCodeCache: () => {
      if (saved || usableDir === undefined) return;
      saved = true;
      writeCodeCache(script, source, embedded, usableDir, file);
    },
  };
}

function unpack(embedded: EmbeddedModule): string {
  const packed = Buffer.from(embedded.readPacked(), 'base64');
  return nodeBuiltins.zlib().brotliDecompressSync(packed).toString('utf8');
}

function cacheFileName(embedded: EmbeddedModule): string {
  const hash = embedded.sourceHash.replace(/[^0-9a-zA-Z]/g, '').slice(0, 32);
  return `${embedded.name}-${hash}-f${cacheFormat}-${process.version}-${process.arch}-${flagsKey()}.v8cache`;
}

// V8 rejects a cache made under other flags, and a rejected cache is rewritten: with one file for
// all flags, one run with a V8 flag (on the command line or in NODE_OPTIONS) made the next plain run
// compile mvdan-sh from scratch (+500 M instructions), and so on at every switch. So the flags the
// process started with are part of the name: each set keeps its own cache.
function flagsKey(): string {
  const crc32 = crc32OrNone();
  if (crc32 === undefined) return 'x';
  const flags = JSON.stringify([process.execArgv, process.env.NODE_OPTIONS ?? '']);
  return crc32(Buffer.from(flags, 'utf8')).toString(16).padStart(8, '0');
}

function compile(wrapped: string, filename: string, cachedData: Buffer | undefined): Script {
  const { Script } = nodeBuiltins.vm();
  if (cachedData !== undefined) {
    try {
      return new Script(wrapped, { filename, cachedData });
    } catch {
      // fall through: compile without the cache
    }
  }
  return new Script(wrapped, { filename });
}

// A cache file is a header, then the module's source unpacked (when the bundle gives its CRC), then
// V8's data. The header: the CRC-32 of V8's data and the source's length in bytes (4 bytes each,
// big-endian). V8 checks its version, flags and the data's length, but no checksum: a flipped byte
// crashes the process (SIGSEGV), which no fail-open can catch. So the data reaches V8 only when its
// CRC matches, and the source is used only when its CRC is the bundle's own. The source rides
// along because unpacking it (brotli) costs more than reading it. zlib.crc32 rather than a SHA:
// node:crypto alone costs a hook ~3% of Node's start-up.
const headerLength = 8;
// Undefined without zlib.crc32: then no cache is read or written.
const crc32OrNone = (): ((data: Uint8Array) => number) | undefined =>
  (nodeBuiltins.zlib() as { crc32?: (data: Uint8Array) => number }).crc32;

interface CodeCache {
  data: Buffer; // V8's code cache
  source: string | undefined; // the module's source, when the file carries it
}

function readCodeCache(file: string, embedded: EmbeddedModule): CodeCache | undefined {
  const crc32 = crc32OrNone();
  if (crc32 === undefined) return undefined;
  try {
    const content = readFileSync(file);
    if (content.length <= headerLength) return undefined;
    const sourceLength = content.readUInt32BE(4);
    const dataStart = headerLength + sourceLength;
    if (dataStart >= content.length) return undefined;
    const data = content.subarray(dataStart);
    if (crc32(data) !== content.readUInt32BE(0)) return undefined;
    if (sourceLength === 0) return { data, source: undefined };
    const sourceBytes = content.subarray(headerLength, dataStart);
    if (embedded.sourceCrc32 === undefined || crc32(sourceBytes) !== embedded.sourceCrc32) return undefined;
    return { data, source: sourceBytes.toString('utf8') };
  } catch {
    return undefined;
  }
}

// The cache is machine code's recipe: read it only from a folder no other user can write to.
// The temp folder is shared, so someone else could have made `kit-code-cache-<uid>` first.
const isOwnFolder = (dir: string): boolean => folderProblem(dir, unwritableByOthers) === null;

function writeCodeCache(
  script: Script,
  source: string,
  embedded: EmbeddedModule,
  cacheDir: string,
  file: string,
): void {
  // Several hooks may start together: each writes its own temp file and renames it into place,
  // so a reader sees a whole cache or none.
  const crc32 = crc32OrNone();
  if (crc32 === undefined) return;
  const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    try {
      mkdirSync(cacheDir, { mode: 0o700 }); // the cache's own folder only: the temp folder is the user's
    } catch {
      // there already (judged next), or nowhere to make it: then there is no own folder, and no cache
    }
    if (!isOwnFolder(cacheDir)) return;
    const data = script.createCachedData();
    const sourceBytes = embedded.sourceCrc32 === undefined ? Buffer.alloc(0) : Buffer.from(source, 'utf8');
    const header = Buffer.alloc(headerLength);
    header.writeUInt32BE(crc32(data), 0);
    header.writeUInt32BE(sourceBytes.length, 4);
    writeFileSync(temp, Buffer.concat([header, sourceBytes, data]), { mode: 0o600 });
    renameSync(temp, file);
  } catch {
    try {
      rmSync(temp, { force: true });
    } catch {
      // nothing left to do: the next start compiles from source
    }
  }
}
