import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { brotliCompressSync, crc32 } from 'node:zlib';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import { build } from 'tsup';
import { afterAll, beforeAll, describe, expect, onTestFinished, test } from 'vitest';
import { hookBundle } from '../../../tsup.base.ts';
import { type EmbeddedModule, isEmbeddedModule, loadEmbeddedModule } from '../src/embedded-module.ts';

// A module in the shape GopherJS emits: it reads the CommonJS wrapper's names and sets exports.
const sourceOf = (answer: string): string =>
  `module.exports.answer = ${JSON.stringify(answer)};\n` +
  'exports.seen = { require: typeof require, filename: typeof __filename, dirname: typeof __dirname, self: this === module.exports };\n' +
  "exports.inspect = require('node:util').inspect;\n" +
  'exports.lazy = function () { return [1, 2, 3].map((n) => n * 2).join(","); };\n';

const hashOf = (text: string): string => createHash('sha256').update(text).digest('hex');
// As hookBundle builds it: with the source's CRC-32, so a cache file may carry the source unpacked.
const embeddedOf = (source: string, sourceHash = hashOf(source)): EmbeddedModule => {
  const packed = brotliCompressSync(source).toString('base64');
  return {
    embedded: 'commonjs',
    name: 'demo',
    readPacked: () => packed,
    sourceHash,
    sourceCrc32: crc32(Buffer.from(source, 'utf8')),
  };
};
// As a bundle built without zlib.crc32 has it: the cache file holds V8's data only.
const withoutSourceCrc = (embedded: EmbeddedModule): EmbeddedModule => {
  const { sourceCrc32: _, ...rest } = embedded;
  return rest;
};

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'kit-embedded-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const cacheFiles = (dir: string): string[] => readdirSync(dir).filter((name) => name.endsWith('.v8cache'));
const onlyCacheFile = (dir: string): string => {
  const files = cacheFiles(dir);
  expect(files).toHaveLength(1);
  return join(dir, files[0] as string);
};
const loadAndSave = (embedded: EmbeddedModule, dir: string) => {
  const loaded = loadEmbeddedModule(embedded, dir);
  (loaded.exports as { lazy(): string }).lazy();
  loaded.saveCodeCache();
  return loaded;
};

// In process: the loader's own decisions. Whether V8 really takes a cache can only be seen in a
// fresh process (this isolate keeps compiled scripts in memory), so that part is below.
describe('loadEmbeddedModule, in process', () => {
  test('runs the source as CommonJS: exports, module, require, __filename, __dirname, this', () => {
    const loaded = loadEmbeddedModule(embeddedOf(sourceOf('forty-two')), tempDir());
    expect(loaded.exports).toMatchObject({
      answer: 'forty-two',
      seen: { require: 'function', filename: 'string', dirname: 'string', self: true },
    });
    expect(typeof (loaded.exports as { inspect: unknown }).inspect).toBe('function');
  });

  test('saveCodeCache writes one file, named for the source hash, the format, Node, the arch and the flags', () => {
    const dir = join(tempDir(), 'cache');
    const loaded = loadAndSave(embeddedOf(sourceOf('a'), 'abc123'), dir);
    expect(loaded.usedCodeCache).toBe(false);
    const flags = JSON.stringify([process.execArgv, process.env.NODE_OPTIONS ?? '']);
    const flagsKey = crc32(Buffer.from(flags)).toString(16).padStart(8, '0');
    expect(cacheFiles(dir)).toEqual([
      `demo-abc123-f4-${process.version}-${process.arch}-${flagsKey}.v8cache`,
    ]);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  describe('a damaged cache never reaches V8 (a flipped byte would crash it), and is rewritten', () => {
    const embedded = embeddedOf(sourceOf('a'));
    const damages: Array<[string, (content: Buffer) => Buffer]> = [
      ['empty', () => Buffer.alloc(0)],
      ['truncated', (content) => content.subarray(0, 40)],
      ['header only', (content) => content.subarray(0, 4)],
      ['garbage', (content) => Buffer.alloc(content.length, 0x5a)],
      [
        'flipped bytes',
        (content) => {
          const copy = Buffer.from(content);
          for (let at = 40; at < copy.length; at += 97) copy[at] = (copy[at] as number) ^ 0xff;
          return copy;
        },
      ],
    ];
    test.for(damages)('%s', ([, damage]) => {
      const dir = tempDir();
      loadAndSave(embedded, dir);
      const file = onlyCacheFile(dir);
      const damaged = damage(readFileSync(file));
      writeFileSync(file, damaged);
      const loaded = loadAndSave(embedded, dir);
      expect(loaded.usedCodeCache).toBe(false);
      expect((loaded.exports as { lazy(): string }).lazy()).toBe('2,4,6');
      expect(readFileSync(file).equals(damaged)).toBe(false);
    });
  });

  test('the cache file carries the source when the bundle gives its CRC, and only then', () => {
    const source = sourceOf('carried');
    const withCrc = tempDir();
    loadAndSave(embeddedOf(source), withCrc);
    expect(readFileSync(onlyCacheFile(withCrc)).includes(source)).toBe(true);
    const withoutCrc = tempDir();
    loadAndSave(withoutSourceCrc(embeddedOf(source)), withoutCrc);
    expect(readFileSync(onlyCacheFile(withoutCrc)).includes(source)).toBe(false);
    expect(loadAndSave(withoutSourceCrc(embeddedOf(source)), withoutCrc).usedCodeCache).toBe(true);
  });

  test("a carried source that is not the bundle's (V8 data intact) is ignored and rewritten", () => {
    const dir = tempDir();
    const source = sourceOf('mine');
    const embedded = embeddedOf(source);
    loadAndSave(embedded, dir);
    const file = onlyCacheFile(dir);
    const content = readFileSync(file);
    const at = content.indexOf('mine');
    content.write('evil', at); // same length: only the source's CRC can tell
    writeFileSync(file, content);
    const loaded = loadAndSave(embedded, dir);
    expect(loaded.usedCodeCache).toBe(false);
    expect((loaded.exports as { answer: string }).answer).toBe('mine');
    expect(readFileSync(file).includes('evil')).toBe(false);
  });

  test('an unwritable cache folder: the module still loads and saving does not throw', () => {
    const notAFolder = join(tempDir(), 'file');
    writeFileSync(notAFolder, '');
    const loaded = loadEmbeddedModule(embeddedOf(sourceOf('a')), join(notAFolder, 'cache'));
    expect(() => loaded.saveCodeCache()).not.toThrow();
    expect((loaded.exports as { answer: string }).answer).toBe('a');
  });

  test.for([
    ['a cache folder whose parent is not there (a removed TMPDIR): it loads, and makes nothing', false],
    ['the control: its parent there, the cache folder is made and a cache saved', true],
  ] as const)('%s', ([, parentThere]) => {
    const temp = join(tempDir(), 'temp');
    if (parentThere) mkdirSync(temp);
    const loaded = loadEmbeddedModule(embeddedOf(sourceOf('a')), join(temp, 'cache'));
    loaded.saveCodeCache();
    expect((loaded.exports as { answer: string }).answer).toBe('a');
    expect(existsSync(temp)).toBe(parentThere);
    if (parentThere) expect(readdirSync(join(temp, 'cache')).length).toBeGreaterThan(0);
  });

  test('a folder other users can write to is neither read nor written', () => {
    const dir = tempDir();
    const embedded = embeddedOf(sourceOf('a'));
    loadAndSave(embedded, dir);
    chmodSync(dir, 0o777);
    const before = statSync(onlyCacheFile(dir)).ino;
    expect(loadAndSave(embedded, dir).usedCodeCache).toBe(false);
    expect(statSync(onlyCacheFile(dir)).ino).toBe(before);
  });

  test("the module's own error reaches the caller", () => {
    expect(() => loadEmbeddedModule(embeddedOf("throw new Error('init failed');"), tempDir())).toThrow(
      'init failed',
    );
  });

  test('isEmbeddedModule tells the stand-in from a module', () => {
    expect(isEmbeddedModule(embeddedOf('1'))).toBe(true);
    expect(isEmbeddedModule({ syntax: {} })).toBe(false);
    expect(isEmbeddedModule(null)).toBe(false);
    expect(isEmbeddedModule({ ...embeddedOf('1'), readPacked: 'packed' })).toBe(false);
  });
});

// Each load in its own process, as a hook runs: a probe bundle (built with hookBundle) loads the
// module described by a JSON file and prints whether V8 took the cache and what the code says.
describe('loadEmbeddedModule, one process per load', () => {
  let probeDir = '';
  beforeAll(async () => {
    probeDir = mkdtempSync(join(tmpdir(), 'kit-embedded-probe-'));
    const entry = join(probeDir, 'entry.mjs');
    const loader = fileURLToPath(new URL('../src/embedded-module.ts', import.meta.url));
    writeFileSync(
      entry,
      `import { readFileSync } from 'node:fs';\n` +
        `import { loadEmbeddedModule } from ${JSON.stringify(loader)};\n` +
        `const [described, dir] = process.argv.slice(2);\n` +
        `const { packed, ...fields } = JSON.parse(readFileSync(described, 'utf8'));\n` +
        `const loaded = loadEmbeddedModule({ ...fields, readPacked: () => packed }, dir);\n` +
        `loaded.exports.lazy();\n` +
        `loaded.saveCodeCache();\n` +
        `console.log(JSON.stringify({ usedCodeCache: loaded.usedCodeCache, answer: loaded.exports.answer }));\n`,
    );
    await build({ ...hookBundle({ probe: entry }), outDir: probeDir, config: false, silent: true });
  }, 30_000);
  afterAll(() => rmSync(probeDir, { recursive: true, force: true }));

  function load(embedded: EmbeddedModule, dir: string): { usedCodeCache: boolean; answer: string } {
    const described = join(dir, '..', `${embedded.sourceHash}.json`);
    writeFileSync(described, JSON.stringify({ ...embedded, packed: embedded.readPacked() }));
    const result = spawnSync(process.execPath, [join(probeDir, 'probe.cjs'), described, dir], {
      encoding: 'utf8',
    });
    expect(result.stderr).toBe('');
    return JSON.parse(result.stdout);
  }
  const cacheDir = (): string => join(tempDir(), 'cache');

  test('the cache written by one process is taken by the next, and not rewritten', () => {
    const dir = cacheDir();
    const embedded = embeddedOf(sourceOf('a'));
    expect(load(embedded, dir)).toEqual({ usedCodeCache: false, answer: 'a' });
    const written = statSync(onlyCacheFile(dir)).ino;
    expect(load(embedded, dir)).toEqual({ usedCodeCache: true, answer: 'a' });
    expect(statSync(onlyCacheFile(dir)).ino).toBe(written);
  });

  test('a well-formed cache of another script under this name: V8 rejects it, it is rewritten', () => {
    const dir = cacheDir();
    const embedded = embeddedOf(sourceOf('a'));
    load(embedded, dir);
    const file = onlyCacheFile(dir);
    const foreign = new Script('globalThis.other = 1;').createCachedData();
    const header = Buffer.alloc(8); // the CRC of V8's data, and no source
    header.writeUInt32BE(crc32(foreign), 0);
    writeFileSync(file, Buffer.concat([header, foreign]));
    expect(load(embedded, dir)).toEqual({ usedCodeCache: false, answer: 'a' });
    expect(load(embedded, dir)).toEqual({ usedCodeCache: true, answer: 'a' });
  });

  // V8 checks a cache against the source's length only. With the same length and the same name,
  // and no source CRC to compare, the OLD code runs (the control); the source hash in the name is
  // what keeps a stale cache out, and a carried source's CRC keeps it out a second way.
  test('a stale cache (same-length source, new hash) is not used: the new code runs', () => {
    const dir = cacheDir();
    load(withoutSourceCrc(embeddedOf(sourceOf('old'), 'one-name')), dir);
    expect(load(withoutSourceCrc(embeddedOf(sourceOf('new'), 'one-name')), dir)).toEqual({
      usedCodeCache: true,
      answer: 'old',
    });
    const fresh = embeddedOf(sourceOf('new'));
    expect(load(fresh, dir)).toEqual({ usedCodeCache: false, answer: 'new' });
    expect(load(fresh, dir)).toEqual({ usedCodeCache: true, answer: 'new' });
  });

  test("a stale cache under the same name is caught by the carried source's CRC: the new code runs", () => {
    const dir = cacheDir();
    load(embeddedOf(sourceOf('old'), 'one-name'), dir);
    expect(load(embeddedOf(sourceOf('new'), 'one-name'), dir)).toEqual({
      usedCodeCache: false,
      answer: 'new',
    });
    expect(load(embeddedOf(sourceOf('new'), 'one-name'), dir)).toEqual({
      usedCodeCache: true,
      answer: 'new',
    });
  });
});
