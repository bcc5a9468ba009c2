import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, watch, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { collectOutput, hookEnv } from '@kit/test-kit';
import { build } from 'tsup';
import { hookBundle } from '../../../tsup.base.ts';
import { fixturePath } from './run-fixture.ts';

// The verdict server's fault tests drive a fixture guard built exactly as a guard's hook is
// (hookBundle with a verdict server), from the runtime's source, and run as the host runs it.

/**
 * Builds the fixture guards (served.mjs, served-strict.mjs) into `outDir` as hook bundles with a
 * verdict server; `buildTag` changes one constant of the code (an upgraded bundle).
 */
export async function buildServedBundles(outDir: string, buildTag?: string): Promise<void> {
  await build({
    ...hookBundle(
      { served: fixturePath('served.mjs'), 'served-strict': fixturePath('served-strict.mjs') },
      // What the fixture reads from a call's environment, beyond the runtime's own.
      { verdictServer: true, environment: fixtureEnvironment },
    ),
    ...(buildTag === undefined ? {} : { define: { __FIXTURE_BUILD__: JSON.stringify(buildTag) } }),
    outDir,
    config: false,
    silent: true,
  });
}

/** The variables the fixture guard reads while it judges (served.mjs). */
export const fixtureEnvironment: readonly string[] = ['FIXTURE_SWITCH', 'FIXTURE_EVALUATING'];

/** One trace line, as far as these tests read it. */
export interface TraceLine {
  verdict: string;
  cause?: string;
  path?: string;
  server?: string;
  serverMs?: number;
}

/** What one hook call did: its output, its wall time, and the trace line it wrote. */
export interface ServedCall {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  ms: number;
  trace: TraceLine | undefined;
  traceLines: number; // how many times the call was judged (a call answered twice writes two)
  traceFile: string;
}

/** How one call runs: its TMPDIR (so its server folder), cwd, extra environment and arguments. */
export interface CallSetting {
  temp: string;
  cwd?: string; // default temp
  env?: Record<string, string | undefined>;
  args?: string[];
}

let calls = 0;

/** The environment of a call: the test's own, with no kit variable leaking in, a 30 s quiet period. */
export function callEnv(setting: CallSetting): Record<string, string | undefined> {
  return hookEnv({
    TMPDIR: setting.temp,
    KIT_HOOKS_SERVER: undefined,
    KIT_HOOKS_SERVER_IDLE_SECONDS: '30',
    ...setting.env,
  });
}

/** Runs the bundle as the host does (`node <bundle>`, the payload on stdin), traced to a file of its own. */
export async function callHook(bundle: string, stdin: string, setting: CallSetting): Promise<ServedCall> {
  calls += 1;
  const traceFile = join(setting.temp, `trace-${calls}.jsonl`);
  const env = { KIT_HOOKS_TRACE: traceFile, ...callEnv(setting) };
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, [bundle, ...(setting.args ?? [])], {
    cwd: setting.cwd ?? setting.temp,
    env,
  });
  child.stdin.on('error', () => undefined);
  child.stdin.end(stdin);
  const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  const run = await collectOutput(child).finally(() => clearTimeout(killer));
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  return {
    ...run,
    ms,
    trace: lastTraceLine(env.KIT_HOOKS_TRACE),
    traceLines: traceLineCount(traceFile),
    traceFile,
  };
}

/** How many lines a trace file holds. */
export function traceLineCount(file: string): number {
  try {
    return readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line !== '').length;
  } catch {
    return 0;
  }
}

/** The last line of a trace file, parsed; undefined when there is none. */
export function lastTraceLine(file: string | undefined): TraceLine | undefined {
  if (file === undefined) return undefined;
  try {
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    return JSON.parse(lines[lines.length - 1] ?? '') as TraceLine;
  } catch {
    return undefined;
  }
}

/** What `node <bundle> --kit-server-status` prints for a call in `setting`. */
export function serverStatus(
  bundle: string,
  setting: CallSetting,
): { server: string; socket: string | null; key: string | null } {
  const run = spawnSync(process.execPath, [bundle, '--kit-server-status', ...(setting.args ?? [])], {
    cwd: setting.cwd ?? setting.temp,
    env: callEnv(setting),
    encoding: 'utf8',
  });
  return JSON.parse(run.stdout) as { server: string; socket: string | null; key: string | null };
}

/** The mailbox (the server's name) a call in `setting` asks, and the key its server answers with. */
export function mailboxFor(
  bundle: string,
  setting: CallSetting,
): { mailbox: string; key: string; folder: string } {
  const { socket: mailbox } = serverStatus(bundle, setting); // doctor's field names the mailbox
  if (mailbox === null) throw new Error('no mailbox for this setting');
  return { mailbox, key: basename(mailbox, '.box'), folder: dirname(mailbox) };
}

/** The pids of the verdict servers started from `bundle` (their command line, from /proc). */
export function serverPids(bundle: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const argv = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
      if (argv.includes('--kit-serve-verdicts') && argv.includes(bundle)) pids.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/** True while the process lives (a zombie counts as ended). */
export function alive(pid: number): boolean {
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

/** Ends every server started from these bundles. */
export function killServers(...bundles: string[]): void {
  for (const bundle of bundles) {
    for (const pid of serverPids(bundle)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // ended meanwhile
      }
    }
  }
}

/** Polls `condition` every `everyMs` until it holds; false when `timeoutMs` passes first. */
export async function waitFor(condition: () => boolean, timeoutMs = 5000, everyMs = 20): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  return condition();
}

/** What a stand-in does with a request it has taken: reply with this text, or drop it unanswered. */
export type StandInAnswer = { reply: string } | 'drop' | 'hold';

/**
 * A stand-in server for `mailbox` in a 0700 folder, as the front sees a server: a mailbox whose
 * claim names this process. With `take: false` it
 * never takes a request; otherwise it takes each one and `answer` says what it does with it (the
 * request's text is passed). `seen` counts the requests that reached its mailbox.
 */
export async function fakeServer(
  mailbox: string,
  answer: (request: string) => StandInAnswer = () => 'hold',
  { take = true }: { take?: boolean } = {},
): Promise<{ close: () => Promise<void>; seen: () => number; mailbox: string }> {
  mkdirSync(dirname(mailbox), { recursive: true, mode: 0o700 });
  mkdirSync(join(mailbox, 'work'), { recursive: true, mode: 0o700 });
  writeFileSync(join(mailbox, 'server'), String(process.pid));
  const seen = new Set<string>();
  const look = (): void => {
    let names: string[];
    try {
      names = readdirSync(mailbox);
    } catch {
      return;
    }
    for (const name of names) {
      if (!name.endsWith('.req')) continue;
      const id = name.slice(0, -'.req'.length);
      if (seen.has(id)) continue;
      seen.add(id);
      if (!take) continue;
      const taken = join(mailbox, 'work', `${id}.taken`);
      try {
        renameSync(join(mailbox, name), taken);
      } catch {
        continue;
      }
      const what = answer(readFileSync(taken, 'utf8'));
      if (what === 'hold') continue;
      if (what !== 'drop') replyInMailbox(mailbox, id, what.reply);
      rmSync(taken, { force: true });
    }
  };
  const watcher = watch(mailbox, look);
  const timer = setInterval(look, 5);
  return {
    mailbox,
    seen: () => seen.size,
    close: async () => {
      clearInterval(timer);
      watcher.close();
    },
  };
}

/** Answers the call `id` as the server does: the reply written whole, then renamed in, so no call reads half of it. */
export function replyInMailbox(mailbox: string, id: string, reply: string): void {
  writeFileSync(join(mailbox, 'work', `${id}.part`), reply);
  renameSync(join(mailbox, 'work', `${id}.part`), join(mailbox, 'work', `${id}.reply`));
}

/** Leaves `request` in a server's mailbox as a call does; the reply's text, or null after `boundMs`. */
export async function askMailbox(mailbox: string, request: string, boundMs = 3000): Promise<string | null> {
  const id = `test-${process.pid}-${Date.now().toString(36)}`;
  writeFileSync(join(mailbox, 'work', `${id}.tmp`), request, { mode: 0o600 });
  renameSync(join(mailbox, 'work', `${id}.tmp`), join(mailbox, `${id}.req`));
  const reply = join(mailbox, 'work', `${id}.reply`);
  const until = Date.now() + boundMs;
  while (Date.now() < until) {
    try {
      const text = readFileSync(reply, 'utf8');
      rmSync(reply, { force: true });
      return text;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
  return null;
}
