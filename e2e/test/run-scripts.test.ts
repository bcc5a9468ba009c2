// The root scripts `npm test` and `npm run kit` run through: the task runner's order and lines,
// the filter that quiets pnpm's unbuilt-bin warnings, and ending the verdict servers of one run by
// its folder while another folder's servers (another user's, another run's) keep running.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';

const scripts = resolve(import.meta.dirname, '..', '..', 'scripts');
const load = (name: string) => import(pathToFileURL(join(scripts, name)).href);

type Task = { id: string; runs: boolean; dependencies: string[] };
const task = (id: string, ...dependencies: string[]): Task => ({ id, runs: true, dependencies });

describe('run-tasks.mjs', () => {
  test('dependencies first, ties by name, a dependency outside the plan ignored', async () => {
    const { dependencyOrder } = await load('run-tasks.mjs');
    const order: Task[] = dependencyOrder([
      task('b#test', 'b#build'),
      task('a#test', 'a#build'),
      task('b#build', 'a#build', 'outside#build'),
      task('a#build'),
    ]);
    expect(order.map((t) => t.id)).toEqual(['a#build', 'a#test', 'b#build', 'b#test']);
  });

  test('a cycle is an error, not a hang', async () => {
    const { dependencyOrder } = await load('run-tasks.mjs');
    expect(() => dependencyOrder([task('a', 'b'), task('b', 'a')])).toThrow(/cycle/);
  });

  test.each([
    [{ ms: 4_200, expectedMs: 3_000, cached: false }, 'kit: [2/9] done a#test  4s (expected ~3s)'],
    [{ ms: 125_000, expectedMs: 61_000, cached: false }, 'kit: [2/9] done a#test  2m 05s (expected ~1m 01s)'],
    [
      { ms: 900, expectedMs: undefined, cached: true },
      'kit: [2/9] done a#test  1s, cached (no expected time yet)',
    ],
  ])('the finished line %#', async (times, line) => {
    const { finishedLine } = await load('run-tasks.mjs');
    expect(finishedLine({ index: 2, total: 9, id: 'a#test', outcome: 'done', ...times })).toBe(line);
  });
});

describe('quiet-bins.mjs', () => {
  const filter = (input: string) =>
    spawnSync(process.execPath, [join(scripts, 'quiet-bins.mjs')], { input, encoding: 'utf8' }).stdout;
  const unbuilt =
    " WARN  Failed to create bin at /w/e2e/node_modules/.bin/kit-segments. ENOENT: no such file or directory, open '/w/e2e/node_modules/@kit/shell-segments/dist/cli.js'";

  test('an unbuilt workspace bin is counted, not shown; every other line passes', () => {
    const out = filter(`Progress: resolved 249\n${unbuilt}\n${unbuilt}\nDone in 3s\n`);
    expect(out).toBe(
      'Progress: resolved 249\nDone in 3s\nkit: 2 bins of workspace packages wait for their build (dist/ is made next); not an error\n',
    );
  });

  test('another warning is shown as pnpm wrote it, and no count line is added', () => {
    const other = ' WARN  Failed to create bin at /w/node_modules/.bin/x. EACCES: permission denied';
    expect(filter(`${other}\n`)).toBe(`${other}\n`);
  });
});

describe('end-run-servers.mjs', () => {
  const root = mkdtempSync(join(tmpdir(), 'kit-end-servers-'));
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(root, { recursive: true, force: true });
  });

  /** A process that looks like a verdict server (its argv), with TMPDIR `temp`; its pid file if asked. */
  const fakeServer = (temp: string, marker: string, pidFile: boolean): ChildProcess => {
    mkdirSync(temp, { recursive: true });
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', '--', marker], {
      env: { ...process.env, TMPDIR: temp },
      stdio: 'ignore',
    });
    children.push(child);
    if (pidFile) {
      const box = join(temp, 'kit-hooks-1000', `key${children.length}.box`);
      mkdirSync(box, { recursive: true });
      writeFileSync(join(box, 'server'), String(child.pid));
    }
    return child;
  };
  const ended = (child: ChildProcess) =>
    new Promise<boolean>((done) => {
      if (child.exitCode !== null || child.signalCode !== null) return done(true);
      child.once('exit', () => done(true));
    });
  const alive = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

  test.skipIf(process.platform !== 'linux')(
    "the run's servers end (by pid file, by TMPDIR); another folder's and a non-server stay",
    async () => {
      const { endRunServers } = await load('end-run-servers.mjs');
      const run = join(root, 'run');
      const byPidFile = fakeServer(run, '--kit-serve-verdicts', true);
      const folderRemoved = fakeServer(join(run, 'kit-vs-gone'), '--kit-serve-verdicts', false);
      const notAServer = fakeServer(run, '--something-else', true);
      const otherRun = fakeServer(join(root, 'other'), '--kit-serve-verdicts', true);
      const pids: number[] = endRunServers(run);
      expect(pids.sort()).toEqual([byPidFile.pid, folderRemoved.pid].sort());
      await Promise.all([ended(byPidFile), ended(folderRemoved)]);
      expect(alive(notAServer)).toBe(true);
      expect(alive(otherRun)).toBe(true);
    },
  );
});
