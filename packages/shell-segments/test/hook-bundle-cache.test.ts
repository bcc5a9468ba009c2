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
import { fileURLToPath } from 'node:url';
import { build } from 'tsup';
import { afterAll, beforeAll, expect, onTestFinished, test } from 'vitest';
import { hookBundle } from '../../../tsup.base.ts';

// A guard's hook bundle carries mvdan-sh as text and compiles it on the first parse through V8's
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
    return readdirSync(cacheFolder(temp)).map((name) => join(cacheFolder(temp), name));
  } catch {
    return [];
  }
};

test('the bundle carries mvdan-sh as text, not as code', () => {
  const text = readFileSync(hook, 'utf8');
  expect(text).toContain('embedded:"commonjs",name:"mvdan-sh",brotliBase64:"');
  expect(text).not.toContain('$goVersion'); // mvdan-sh's first line
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

test('a cache folder another user could write to is left alone', () => {
  const temp = tempFolder();
  mkdirSync(cacheFolder(temp), { mode: 0o777 });
  chmodSync(cacheFolder(temp), 0o777);
  expect(runHook(temp, 'a | b')).toEqual(['a', 'b']);
  expect(cacheFilesIn(temp)).toEqual([]);
});
