import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { removeTree } from '@kit/test-kit';
import { afterAll, beforeAll, expect, onTestFinished, test } from 'vitest';
import { bashPayload, denyLine } from './run-fixture.ts';
import { buildServedBundles, callHook, killServers, serverPids } from './served-bundle.ts';

// Under load a server that is only slow is never replaced: the calls it cannot serve in time
// answer in process and start nothing, and at no moment do two servers run for one key.

let bundles = '';
let served = '';
beforeAll(async () => {
  bundles = mkdtempSync(join(tmpdir(), 'kit-vs-load-bundles-'));
  await buildServedBundles(bundles);
  served = join(bundles, 'served.cjs');
}, 60_000);
afterAll(() => rmSync(bundles, { recursive: true, force: true }));

/** CPU load made by the test: `count` busy loops, each ending by itself after `ms`, ended at the test's end. */
function cpuLoad(count: number, ms: number): ChildProcess[] {
  const loops = Array.from({ length: count }, () =>
    spawn(process.execPath, ['-e', `const end = Date.now() + ${ms}; while (Date.now() < end);`], {
      stdio: 'ignore',
    }),
  );
  onTestFinished(() => {
    for (const loop of loops) loop.kill('SIGKILL');
  });
  return loops;
}

/** Samples the servers of `bundle` until stopped: every pid seen, and the most seen at once. */
function watchServers(bundle: string): () => { seen: number[]; most: number } {
  const seen = new Set<number>();
  let most = 0;
  const look = (): void => {
    const pids = serverPids(bundle);
    for (const pid of pids) seen.add(pid);
    most = Math.max(most, pids.length);
  };
  const timer = setInterval(look, 10);
  return () => {
    clearInterval(timer);
    look();
    return { seen: [...seen], most };
  };
}

test('bursts of 50 calls on a loaded machine: every answer right, no server replaced, one at a time', async () => {
  const temp = mkdtempSync(join(tmpdir(), 'kit-vs-load-'));
  onTestFinished(() => {
    killServers(served);
    removeTree(temp);
  });
  const startLog = join(temp, 'warm-ups'); // a line for each server that began to warm up
  // A quiet period longer than the test: a server that ends here was replaced, not idle.
  const setting = { temp, env: { FIXTURE_WARM_UP_LOG: startLog, KIT_HOOKS_SERVER_IDLE_SECONDS: '600' } };
  const deny = bashPayload('make test | tail -5');
  const expected = denyLine(
    `fixture-guard: make test | tail -5 (switch unset/unset, cwd ${temp}, policy none, build plain)`,
  );
  const first = await callHook(served, deny, setting);
  expect(first.stdout).toBe(expected);
  const until = Date.now() + 10_000;
  while ((await callHook(served, deny, setting)).trace?.path !== 'server' && Date.now() < until);
  const [server] = serverPids(served);

  const stop = watchServers(served);
  const paths: Record<string, number> = {};
  const wrong: unknown[] = [];
  for (let round = 0; round < 2; round++) {
    const load = cpuLoad(2, 8000);
    const runs = await Promise.all(Array.from({ length: 50 }, () => callHook(served, deny, setting)));
    for (const loop of load) loop.kill('SIGKILL');
    for (const run of runs) {
      const path = `${run.trace?.path}:${run.trace?.server ?? ''}`;
      paths[path] = (paths[path] ?? 0) + 1;
      // A call not even scheduled to read its stdin by the deadline fails open, as in process.
      if (run.trace?.server === 'stdin') continue;
      if (run.stdout !== expected || run.exitCode !== 0) wrong.push(run.trace);
    }
  }
  const servers = stop();
  console.log('2 bursts of 50 under load, by path:', JSON.stringify(paths), 'servers seen', servers);
  expect(wrong).toEqual([]);
  expect(servers).toEqual({ seen: [server], most: 1 });
  expect(readFileSync(startLog, 'utf8').trim().split('\n')).toHaveLength(1);
}, 180_000);
