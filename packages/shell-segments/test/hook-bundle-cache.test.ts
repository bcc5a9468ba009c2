import { spawnSync } from 'node:child_process';
import {
  chmodSync,
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
import nodeModule from 'node:module';
import { fileURLToPath } from 'node:url';
import { build } from 'tsup';
import { afterAll, beforeAll, describe, expect, onTestFinished, test } from 'vitest';
import { embedMvdanAsText, hookBundle } from '../../../tsup.base.ts';

// A guard's hook bundle carries mvdan-sh as data and compiles it on the first parse through V8's
// code cache in $TMPDIR/kit-code-cache-<uid>/ (src/embedded-module.ts, hookBundle in tsup.base.ts).
// Built exactly as a guard builds its hook, copied alone into a bare folder, run as the host does.
let bundleDir = '';
let hook = '';
beforeAll(async () => {
  bundleDir = mkdtempSync(join(tmpdir(), 'kit-hook-bundle-'));
  const built = fileURLToPath(new URL('../dist/index.js', import.meta.url));
  const entry = join(bundleDir, 'entry.mjs');
  writeFileSync(
    entry,
    `import { parse, headText } from ${JSON.stringify(built)};\n` +
      `const command = process.argv[2];\n` +
      `const outcome = command === undefined ? { ok: true, value: { segments: [] } } : parse(command);\n` +
      `console.log(JSON.stringify(outcome.ok ? outcome.value.segments.map(headText) : outcome.reason));\n`,
  );
  await build({ ...hookBundle({ hook: entry }), outDir: bundleDir, config: false, silent: true });
  hook = join(mkdtempSync(join(bundleDir, 'bare-')), 'hook.cjs');
  writeFileSync(hook, readFileSync(join(bundleDir, 'hook.cjs')));
}, 30_000);
afterAll(() => rmSync(bundleDir, { recursive: true, force: true }));

function tempFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'kit-hook-tmp-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function runHook(temp: string, ...argv: string[]): unknown {
  return runHookWith({ temp }, ...argv);
}

function runHookWith(
  { temp, nodeArgs = [], nodeOptions }: { temp: string; nodeArgs?: string[]; nodeOptions?: string },
  ...argv: string[]
): unknown {
  const env: Record<string, string | undefined> = { ...process.env, TMPDIR: temp };
  if (nodeOptions === undefined) delete env.NODE_OPTIONS;
  else env.NODE_OPTIONS = nodeOptions;
  const result = spawnSync(process.execPath, [...nodeArgs, hook, ...argv], {
    cwd: join(hook, '..'),
    env,
    encoding: 'utf8',
  });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return JSON.parse(result.stdout);
}

const cacheFolder = (temp: string): string => join(temp, `kit-code-cache-${process.getuid?.() ?? 'user'}`);
const cacheFilesIn = (temp: string): string[] => {
  try {
    // mvdan-sh's own cache files; Node's compile cache keeps a folder of its own beside them.
    return readdirSync(cacheFolder(temp))
      .filter((name) => name.endsWith('.v8cache'))
      .map((name) => join(cacheFolder(temp), name));
  } catch {
    return [];
  }
};

test('the bundle carries its code and mvdan-sh as data after the loader, not as code', () => {
  const text = readFileSync(hook, 'utf8');
  expect(text.startsWith("'use strict';\n// The kit's hook bundle loader")).toBe(true);
  expect(text).toMatch(
    /\n\/\*kit-hook-section:body:[A-Za-z0-9+/=]+\*\/\n\/\*kit-hook-section:mvdan-sh:[A-Za-z0-9+/=]+\*\/\n$/,
  );
  expect(text).not.toContain('$goVersion'); // mvdan-sh's first line
  expect(text).not.toContain('embedded:"commonjs"'); // the body's code is in its section, base64
});

test('parses from a bare folder; the first parse writes the code cache, the next run takes it', () => {
  const temp = tempFolder();
  expect(runHook(temp, 'sudo -u x git push | tail')).toEqual(['git push', 'tail']);
  const [file, ...others] = cacheFilesIn(temp);
  expect(others).toEqual([]);
  expect(file).toMatch(/mvdan-sh-[0-9a-f]{32}-f\d+-v[\d.]+-\w+-[0-9a-f]{8}\.v8cache$/);
  const written = statSync(file as string);
  expect(runHook(temp, 'make check && git push')).toEqual(['make check', 'git push']);
  expect(statSync(file as string).ino).toBe(written.ino); // taken, so not rewritten
});

// V8 rejects a cache made under other flags; with one file for all, a run with a flag rewrote it
// and the next plain run compiled mvdan-sh from scratch (+500 M instructions), at every switch.
test('a run with V8 flags keeps its own cache: the plain cache is neither replaced nor rejected', () => {
  const temp = tempFolder();
  runHook(temp, 'a | b');
  const [plain, ...others] = cacheFilesIn(temp);
  expect(others).toEqual([]);
  const written = statSync(plain as string).ino;
  for (const flagged of [{ nodeArgs: ['--stack-size=900'] }, { nodeOptions: '--max-old-space-size=3000' }]) {
    expect(runHookWith({ temp, ...flagged }, 'a | b')).toEqual(['a', 'b']);
    expect(statSync(plain as string).ino).toBe(written);
  }
  const inodes = () => new Map(cacheFilesIn(temp).map((file) => [file, statSync(file).ino]));
  const before = inodes();
  expect(before.size).toBe(3);
  // A second round takes every cache as it is (a rejected one would be rewritten: a new inode).
  expect(runHookWith({ temp, nodeArgs: ['--stack-size=900'] }, 'c | d')).toEqual(['c', 'd']);
  expect(runHookWith({ temp, nodeOptions: '--max-old-space-size=3000' }, 'c | d')).toEqual(['c', 'd']);
  expect(runHook(temp, 'c | d')).toEqual(['c', 'd']);
  expect(inodes()).toEqual(before);
});

test('a run that never parses does not load mvdan-sh (no cache is written)', () => {
  const temp = tempFolder();
  expect(runHook(temp)).toEqual([]);
  expect(cacheFilesIn(temp)).toEqual([]);
});

test('a corrupt cache is ignored and rewritten', () => {
  const temp = tempFolder();
  runHook(temp, 'true');
  const [file] = cacheFilesIn(temp) as [string];
  const damaged = readFileSync(file);
  for (let at = 40; at < damaged.length; at += 4099) damaged[at] = (damaged[at] as number) ^ 0xff;
  writeFileSync(file, damaged);
  expect(runHook(temp, 'a | b')).toEqual(['a', 'b']);
  expect(readFileSync(file).equals(damaged)).toBe(false);
});

test('an unwritable temp folder costs only the cache', () => {
  const temp = tempFolder();
  writeFileSync(join(temp, 'file'), '');
  expect(runHook(join(temp, 'file', 'tmp'), 'a | b')).toEqual(['a', 'b']);
});

// The temp folder decides only where the cache goes, or that there is none: never whether the
// parser runs. A relative TMPDIR once made createRequire throw, so every bundle parsed nothing.
describe('no TMPDIR spelling switches the parser off', () => {
  const spellings: [string, (temp: string) => string, boolean][] = [
    // [what, the TMPDIR given (from a scratch folder), whether a cache is written under it]
    ['relative', () => 'tmp', false],
    ['relative with a trailing slash', () => 'tmp/', false],
    ['relative, missing', () => 'no-such-folder', false],
    ['dot', () => '.', false],
    ['dot-slash', () => './', false],
    ['empty (os.tmpdir falls back)', () => '', false],
    ['absolute (the positive control)', (temp) => temp, true],
    ['absolute with trailing slashes', (temp) => `${temp}//`, true],
    ['a file, not a folder', (temp) => join(temp, 'a-file'), false],
    ['missing', (temp) => join(temp, 'missing'), false],
    ['not writable', (temp) => join(temp, 'read-only'), false],
  ];
  test.for(spellings)('%s', ([, spell, cached]) => {
    const temp = tempFolder();
    const cwd = join(temp, 'work');
    mkdirSync(join(cwd, 'tmp'), { recursive: true });
    writeFileSync(join(temp, 'a-file'), '');
    mkdirSync(join(temp, 'read-only'), { mode: 0o500 });
    const env: Record<string, string | undefined> = { ...process.env, TMPDIR: spell(temp) };
    delete env.NODE_OPTIONS;
    const result = spawnSync(process.execPath, [hook, 'make test | tail -5'], { cwd, env, encoding: 'utf8' });
    expect([result.status, result.stderr, JSON.parse(result.stdout)]).toEqual([
      0,
      '',
      ['make test', 'tail -5'],
    ]);
    expect(cacheFilesIn(temp).length > 0).toBe(cached);
    expect(readdirSync(join(cwd, 'tmp'))).toEqual([]); // nothing cached in the folder the hook ran in
    expect(readdirSync(cwd)).toEqual(['tmp']);
  });
});

test('a cache folder another user could write to is left alone', () => {
  const temp = tempFolder();
  mkdirSync(cacheFolder(temp), { mode: 0o777 });
  chmodSync(cacheFolder(temp), 0o777);
  expect(runHook(temp, 'a | b')).toEqual(['a', 'b']);
  expect(readdirSync(cacheFolder(temp))).toEqual([]); // neither mvdan-sh's cache nor Node's
});

// Node's compile cache (Node 22.1 and later) keeps the bundle's body compiled
// (packages/fail-open/src/bundle-loader.ts). What Node did is read from its own debug log.
// Node 22.1 and later; @types/node here is Node 20's.
const { enableCompileCache } = nodeModule as { enableCompileCache?: unknown };
describe.skipIf(typeof enableCompileCache !== 'function')("Node's compile cache for the body", () => {
  const compileCacheLog = (temp: string, nodeArgs: string[] = []): string => {
    const env: Record<string, string | undefined> = {
      ...process.env,
      TMPDIR: temp,
      NODE_DEBUG_NATIVE: 'COMPILE_CACHE',
    };
    delete env.NODE_OPTIONS;
    delete env.NODE_COMPILE_CACHE;
    const result = spawnSync(process.execPath, [...nodeArgs, hook, 'a | b'], {
      cwd: join(hook, '..'),
      env,
      encoding: 'utf8',
    });
    expect(result.status).toBe(0);
    expect(
      JSON.parse(result.stdout.slice(result.stdout.lastIndexOf('\n', result.stdout.length - 2) + 1)),
    ).toEqual(['a', 'b']);
    return `${result.stdout}${result.stderr}`;
  };
  const nodeCacheFolders = (temp: string): string[] =>
    readdirSync(cacheFolder(temp)).filter((name) => !name.endsWith('.v8cache') && !name.endsWith('.js'));
  const accepted = (log: string): boolean => log.includes(`for CommonJS ${hook} was accepted`);

  test('the second run takes the body from the cache; a run with a V8 flag keeps its own', () => {
    const temp = tempFolder();
    expect(accepted(compileCacheLog(temp))).toBe(false);
    expect(accepted(compileCacheLog(temp))).toBe(true);
    const [plain, ...others] = nodeCacheFolders(temp);
    expect(others).toEqual([]);
    const plainFiles = () =>
      readdirSync(join(cacheFolder(temp), plain as string)).map(
        (name) => statSync(join(cacheFolder(temp), plain as string, name)).ino,
      );
    const before = plainFiles();
    compileCacheLog(temp, ['--stack-size=900']);
    expect(nodeCacheFolders(temp)).toHaveLength(2);
    expect(accepted(compileCacheLog(temp))).toBe(true); // the flagged run neither replaced nor spoiled it
    expect(plainFiles()).toEqual(before);
  });

  test('a damaged compile cache is not used, and the hook answers as usual', () => {
    const temp = tempFolder();
    compileCacheLog(temp);
    const [folder] = nodeCacheFolders(temp) as [string];
    for (const name of readdirSync(join(cacheFolder(temp), folder))) {
      const file = join(cacheFolder(temp), folder, name);
      const damaged = readFileSync(file);
      for (let at = 40; at < damaged.length; at += 997) damaged[at] = (damaged[at] as number) ^ 0xff;
      writeFileSync(file, damaged);
    }
    expect(accepted(compileCacheLog(temp))).toBe(false);
    expect(runHook(temp, 'c | d')).toEqual(['c', 'd']);
  });
});

// The preset's plugin on its own (a hook author's build without the kit's loader): the packed
// source stays a string literal, and the bundle parses from a bare folder as well.
test('embedMvdanAsText alone: mvdan-sh as a string literal, no loader, parses', async () => {
  const outDir = mkdtempSync(join(bundleDir, 'plain-'));
  const base = hookBundle({ hook: join(bundleDir, 'entry.mjs') });
  await build({
    ...base,
    esbuildPlugins: [embedMvdanAsText],
    plugins: [],
    outDir,
    config: false,
    silent: true,
  });
  const text = readFileSync(join(outDir, 'hook.cjs'), 'utf8');
  expect(text).not.toContain('kit-hook-section:body:');
  expect(text).toContain('embedded:"commonjs",name:"mvdan-sh"');
  const temp = tempFolder();
  const result = spawnSync(process.execPath, [join(outDir, 'hook.cjs'), 'a | b'], {
    env: { ...process.env, TMPDIR: temp },
    encoding: 'utf8',
  });
  expect([result.status, result.stderr, JSON.parse(result.stdout)]).toEqual([0, '', ['a', 'b']]);
}, 30_000);
