import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { collectOutput, tempDir, tempTree } from '@kit/test-kit';
import { beforeAll, describe, expect, test } from 'vitest';
import { escapeQuietMs } from '../src/escape.ts';
import { guardDefinition } from '../src/guard.ts';
import { readCall, stubLauncherFolder } from './helpers.ts';

// Only processes show the race: each hook reads, claims and arms the marker on its own, when the OS
// schedules it, as the host's parallel tool calls do. Each process boots on its own time and then
// waits for one "go" (a preload), so the race is as tight as it gets: no boot order helps.
const builtHook = guardDefinition.bundle;
const startTogether = fileURLToPath(new URL('./fixtures/start-together.cjs', import.meta.url));

interface Finished {
  stdout: string;
  stderr: string;
  exitCode: number | null;
  closedAt: number; // Date.now() once the process had exited
}

function startHook(payload: unknown, env: Record<string, string>): Promise<Finished> {
  const child = spawn(process.execPath, ['--require', startTogether, builtHook], { env });
  const finished = collectOutput(child).then((result) => ({ ...result, closedAt: Date.now() }));
  child.stdin.end(JSON.stringify(payload));
  return finished;
}

/** `count` identical Reads, booted one by one and released together; what each printed, and the trace. */
async function burst(count: number, payload: unknown, env: Record<string, string>) {
  const startFolder = tempDir('rg-start');
  const trace = path.join(tempDir('rg-trace'), 'trace.jsonl');
  const runs = Array.from({ length: count }, () =>
    startHook(payload, { ...env, ROSELINE_TEST_START_FOLDER: startFolder, KIT_HOOKS_TRACE: trace }),
  );
  const ready = () => readdirSync(startFolder).filter((name) => name.startsWith('ready-')).length;
  for (const giveUpAt = Date.now() + 60_000; ready() < count && Date.now() < giveUpAt; ) await sleep(10);
  writeFileSync(path.join(startFolder, 'go'), '');
  const finished = await Promise.all(runs);
  const traced = readFileSync(trace, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as TraceRow);
  return { finished, traced };
}

function setup(session: string) {
  const root = tempTree({ 'App.csproj': '', 'Program.cs': 'class Program {}\n' });
  const temp = tempDir('rg-tmp');
  // With the verdict server on, as users run it: the server answers some calls and the rest answer
  // in process, side by side, and each call is judged by one of them only (the turn), or a marker
  // is taken or armed twice.
  const env: Record<string, string> = {
    PATH: stubLauncherFolder(),
    TMPDIR: temp,
    TEMP: temp,
    TMP: temp,
    KIT_HOOKS_SERVER: 'on',
    KIT_HOOKS_SERVER_IDLE_SECONDS: '5', // the servers of this test end soon after it
  };
  if (process.platform === 'win32') {
    env.PATHEXT = '.COM;.EXE;.BAT;.CMD';
    env.SystemRoot = process.env.SystemRoot ?? 'C:\\Windows';
  }
  const payload = readCall(path.join(root, 'Program.cs'), root, session);
  const sessionFolder = path.join(temp, 'roseline-gate', session);
  const files = () => (existsSync(sessionFolder) ? readdirSync(sessionFolder).sort() : []);
  return { env, payload, files, sessionFolder };
}

/** What each process decided, as the host reads it: the deny JSON or nothing; anything else is a wire bug. */
function decisions(finished: Finished[]): string[] {
  return finished.map((run) => {
    if (run.exitCode !== 0 || run.stderr !== '') return `exit ${run.exitCode}: ${run.stderr}`;
    if (run.stdout === '') return 'pass';
    return JSON.parse(run.stdout).hookSpecificOutput.permissionDecision;
  });
}

type TraceRow = { verdict: string; cause?: string };

// The runtime's own fail-open (its time budget, a stdin that never came) and the guard's refusal to
// arm a marker it might not answer for: each lets a Read through without touching the escape, on a
// machine too loaded to answer in time. They are counted apart, never as the escape's passes.
const failOpenCauses = new Set(['budget-exceeded', 'stdin-timeout', 'late']);

/**
 * The burst's verdicts from the trace: the judged ones (deny, or none: the escape's pass) and the
 * fail-opens under load, which must be only the causes above.
 */
function verdicts(traced: TraceRow[]): { judged: Record<string, number>; failedOpen: number } {
  const judged: Record<string, number> = {};
  let failedOpen = 0;
  for (const row of traced) {
    if (row.cause === undefined) judged[row.verdict] = (judged[row.verdict] ?? 0) + 1;
    else if (failOpenCauses.has(row.cause)) failedOpen++;
    else judged[`${row.verdict} (${row.cause})`] = (judged[`${row.verdict} (${row.cause})`] ?? 0) + 1;
  }
  if (failedOpen > 0)
    console.warn(`${failedOpen} of ${traced.length} hooks failed open under load (the runtime's budget)`);
  return { judged, failedOpen };
}

const count = (list: string[], item: string) => list.filter((entry) => entry === item).length;
// The model's retry comes a turn after the denial; a quiet second is the least of it.
const aQuietSecond = () => sleep(escapeQuietMs + 200);
const rounds = [1, 2, 3];

beforeAll(() => {
  if (!existsSync(builtHook))
    throw new Error(
      `build the package first: ${builtHook} is missing (pnpm --filter @kit/roseline-gate build)`,
    );
});

describe('the one-shot escape under concurrency: dist/hook.cjs, many processes at once', () => {
  test.for(rounds)(
    'round %i: after a denial, 50 identical Reads at once let exactly one through',
    { timeout: 120_000 },
    async (round) => {
      const { env, payload, files } = setup(`burst-after-deny-${round}`);
      expect(decisions((await burst(1, payload, env)).finished)).toEqual(['deny']);
      await aQuietSecond();
      const { finished, traced } = await burst(50, payload, env);
      const { judged, failedOpen } = verdicts(traced);
      expect(judged).toEqual({ deny: 49 - failedOpen, none: 1 });
      expect(count(decisions(finished), 'pass')).toBe(1 + failedOpen);
      // The denials after the pass armed the next escape, once: one marker, nothing left behind.
      expect(files()).toHaveLength(1);
      expect(files()[0]).toMatch(/^[0-9a-f]{32}\.json$/);
    },
  );

  test.for(rounds)(
    'round %i: 20 identical Reads at once, none denied before: none passes, the marker armed once',
    { timeout: 120_000 },
    async (round) => {
      const { env, payload, files, sessionFolder } = setup(`burst-first-${round}`);
      const { finished, traced } = await burst(20, payload, env);
      const { judged, failedOpen } = verdicts(traced);
      expect(judged).toEqual({ deny: 20 - failedOpen });
      expect(count(decisions(finished), 'deny')).toBe(20 - failedOpen);
      expect(files()).toHaveLength(1);
      // Armed once: by the first Read to find no marker, before any denied one had exited. Any
      // later arming would be written after the claim of a pass, and there was none.
      const marker = JSON.parse(readFileSync(path.join(sessionFolder, files()[0] as string), 'utf8'));
      const denied = finished.filter((_, index) => decisions(finished)[index] === 'deny');
      expect(marker.deniedAt).toBeLessThan(Math.min(...denied.map((run) => run.closedAt)));
      // And it is a real escape: the retry a quiet second later passes, once.
      await aQuietSecond();
      const retry = decisions((await burst(1, payload, env)).finished);
      const next = decisions((await burst(1, payload, env)).finished);
      expect([...retry, ...next]).toEqual(['pass', 'deny']);
    },
  );
});

/**
 * One Read, started now with its stdin held back (as a host's call the OS schedules late): it has
 * booted once its preload says ready, and asks for its verdict only once `release` writes the payload.
 */
async function heldRead(payload: unknown, env: Record<string, string>) {
  const startFolder = tempDir('rg-held');
  writeFileSync(path.join(startFolder, 'go'), '');
  const child = spawn(process.execPath, ['--require', startTogether, builtHook], {
    env: { ...env, ROSELINE_TEST_START_FOLDER: startFolder },
  });
  const finished = collectOutput(child).then((result) => ({ ...result, closedAt: Date.now() }));
  const booted = () => readdirSync(startFolder).some((name) => name.startsWith('ready-'));
  for (const giveUpAt = Date.now() + 60_000; !booted() && Date.now() < giveUpAt; ) await sleep(10);
  return { finished, release: () => child.stdin.end(JSON.stringify(payload)) };
}

// A burst whose Reads are answered by both paths: issue 23 saw two identical Reads of one burst pass
// when the served ones were timed as the server judged them and the in-process ones by their
// process's start. The front stamps the call's time as it starts and both paths judge by it.
describe('the escape in a burst mixing served and in-process Reads', () => {
  test.for(rounds)(
    'round %i: a served Read of the burst, judged late, is denied after the in-process pass',
    { timeout: 120_000 },
    async (round) => {
      const { env, payload, files } = setup(`mixed-${round}`);
      const inProcess = { ...env, KIT_HOOKS_SERVER: 'off' };
      const trace = path.join(tempDir('rg-trace'), 'trace.jsonl');
      const traced = { ...env, KIT_HOOKS_TRACE: trace };
      // The server warm, on a Read of another session (the escape is per session).
      const other = setup(`mixed-warm-${round}`).payload;
      const servedNow = async () =>
        ((await burst(1, other, env)).traced[0] as { path?: string }).path === 'server';
      let warm = false;
      for (let i = 0; i < 100 && !warm; i++) warm = await servedNow();
      expect(warm).toBe(true);
      expect(decisions((await burst(1, payload, env)).finished)).toEqual(['deny']);
      await aQuietSecond();
      // The burst: a Read the server will answer, made first but asking late; two in process.
      const served = await heldRead(payload, traced);
      const first = decisions((await burst(1, payload, inProcess)).finished);
      const second = decisions((await burst(1, payload, inProcess)).finished);
      await aQuietSecond(); // the marker the second armed is quiet by the time the server judges
      served.release();
      const late = await served.finished;
      expect(readTrace(trace).at(-1)).toMatchObject({ path: 'server' });
      expect([...first, ...second, ...decisions([late])]).toEqual(['pass', 'deny', 'deny']);
      expect(files()).toHaveLength(1);
    },
  );
});

function readTrace(file: string): { path?: string; verdict?: string }[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { path?: string; verdict?: string });
}
