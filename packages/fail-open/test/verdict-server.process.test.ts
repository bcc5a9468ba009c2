import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, onTestFinished, test } from 'vitest';
import { spawn } from 'node:child_process';
import { collectOutput, removeTree } from '@kit/test-kit';
import { runtimeVariables } from '../src/call-environment.ts';
import { mailboxProtocol } from '../src/mailbox-protocol.ts';
import { pingVerdictServer } from '../src/verdict-server.ts';
import { freeNames, loaderOf } from './free-names.ts';
import { bashPayload, denyLine } from './run-fixture.ts';
import {
  alive,
  askMailbox,
  buildServedBundles,
  type CallSetting,
  callEnv,
  callHook,
  fakeServer,
  fixtureEnvironment,
  killServers,
  replyInMailbox,
  type ServedCall,
  serverPids,
  serverStatus,
  mailboxFor,
  traceLineCount,
  waitFor,
} from './served-bundle.ts';

// The verdict server is an accelerator, never a dependency: whatever goes wrong with it, the call
// answers in process exactly as it would have without one, and the trace says which path answered
// and why not the server. Each test has a TMPDIR of its own, so a server folder of its own.

const uid = process.getuid?.() ?? 0;
const replyBoundMs = 40; // the front's bound (bundle-loader.ts)
let bundles = '';
let served = '';
let strict = '';
beforeAll(async () => {
  bundles = mkdtempSync(join(tmpdir(), 'kit-vs-bundles-'));
  await buildServedBundles(bundles);
  served = join(bundles, 'served.cjs');
  strict = join(bundles, 'served-strict.cjs');
}, 60_000);
afterAll(() => rmSync(bundles, { recursive: true, force: true }));

let extraBundles: string[] = [];
afterEach(() => {
  killServers(served, strict, ...extraBundles);
  extraBundles = [];
});

/** A fresh TMPDIR, removed (with its server folder) when the test ends. */
function freshTemp(): string {
  const temp = mkdtempSync(join(tmpdir(), 'kit-vs-'));
  onTestFinished(() => {
    killServers(served, strict, ...extraBundles);
    removeTree(temp); // a server that started after the kill may still be making its name there
  });
  return temp;
}

const serverFolder = (temp: string): string => join(temp, `kit-hooks-${uid}`);
const deny = bashPayload('make test | tail -5');
const pass = bashPayload('pass');
const denyOf = (command: string, cwd: string, extra = 'switch unset/unset'): string =>
  denyLine(`fixture-guard: ${command} (${extra}, cwd ${cwd}, policy none, build plain)`);

/** The pid of the one server started from `bundle`; throws unless there is exactly one (never a pid 0 to signal). */
function onlyServer(bundle: string): number {
  const pids = serverPids(bundle);
  const [pid] = pids;
  if (pids.length !== 1 || pid === undefined || pid <= 0)
    throw new Error(`one server expected: ${JSON.stringify(pids)}`);
  return pid;
}

/** The output of a call, for comparing two calls byte for byte. */
const output = (call: ServedCall): [number | null, string, string] => [
  call.exitCode,
  call.stdout,
  call.stderr,
];

/** Calls until one is answered by a listening server; the server's answer. */
async function warmServer(bundle: string, setting: CallSetting, stdin = deny): Promise<ServedCall> {
  const until = Date.now() + 10_000;
  for (;;) {
    const call = await callHook(bundle, stdin, setting);
    if (call.trace?.path === 'server' || Date.now() > until) return call;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('no server: the first call answers in process and starts one, later calls go to it', () => {
  test('a deny and a silent call, byte for byte as in process', async () => {
    const temp = freshTemp();
    const first = await callHook(served, deny, { temp });
    expect(output(first)).toEqual([0, denyOf('make test | tail -5', temp), '']);
    expect(first.trace).toMatchObject({ verdict: 'deny', path: 'in-process', server: 'none' });
    expect(await waitFor(() => serverStatus(served, { temp }).server === 'listening')).toBe(true);
    expect(serverPids(served)).toHaveLength(1);

    const later = await warmServer(served, { temp });
    expect(later.trace).toMatchObject({ verdict: 'deny', path: 'server' });
    expect(later.trace?.server).toBeUndefined();
    expect(output(later)).toEqual(output(first));

    const silentInProcess = await callHook(served, pass, { temp, env: { KIT_HOOKS_SERVER: 'off' } });
    const silent = await callHook(served, pass, { temp });
    expect(silent.trace).toMatchObject({ verdict: 'none', path: 'server' });
    expect(output(silent)).toEqual(output(silentInProcess));
    expect(output(silent)).toEqual([0, '', '']);
  });

  test('--kit-server-status names the mailbox of a call with the same arguments', async () => {
    const temp = freshTemp();
    expect(serverStatus(served, { temp })).toEqual({
      server: 'none',
      socket: expect.any(String),
      key: expect.stringMatching(/^[0-9a-f]{16}-v[\d.]+-[0-9a-f]{8}$/),
    });
    await callHook(served, deny, { temp });
    await warmServer(served, { temp });
    const status = serverStatus(served, { temp });
    expect(status.server).toBe('listening');
    expect(existsSync(status.socket ?? '')).toBe(true);
    // The key doctor's ping names is the mailbox's own name (doctor reads it as `socket`).
    expect(status.socket).toBe(join(dirname(status.socket ?? ''), `${status.key}.box`));
    expect(await pingVerdictServer(status.socket ?? '', status.key ?? '', 5000)).toBe(true);
    expect(await pingVerdictServer(status.socket ?? '', `${status.key}0`, 5000)).toBe(false);
    expect(serverStatus(served, { temp, args: ['--other'] }).socket).not.toBe(status.socket);
    expect(serverStatus(served, { temp, env: { KIT_HOOKS_SERVER: 'off' } })).toEqual({
      server: 'off',
      socket: null,
      key: null,
    });
  });
});

// The front writes a served reply straight to fd 1: a host that stopped reading (EPIPE) gets a
// quiet exit, never a stack trace, and the reply, when read, is the server's.
describe('a served reply to a host that stopped reading', () => {
  test.each([
    ['reads its stdout', false],
    ['closed its stdout', true],
  ])('a host that %s: exit 0, nothing on stderr, answered by the server', async (_label, closed) => {
    const temp = freshTemp();
    await warmServer(served, { temp });
    const traceFile = join(temp, `trace-epipe-${closed}.jsonl`);
    const child = spawn(process.execPath, [served], {
      cwd: temp,
      env: { ...callEnv({ temp }), KIT_HOOKS_TRACE: traceFile },
    });
    if (closed) child.stdout.destroy();
    child.stdin.on('error', () => undefined);
    child.stdin.end(deny);
    const run = await collectOutput(child);
    expect(run.exitCode).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe(closed ? '' : denyOf('make test | tail -5', temp));
    const line = JSON.parse(readFileSync(traceFile, 'utf8').trim()) as { path?: string };
    expect(line.path).toBe('server');
  });
});

// The front reads stdin itself, with runHook's bounds: a payload that never ends is no opinion at
// the deadline, and the process ends (a blocking read of a socket that is never closed would hold
// the exit: libuv joins its worker threads).
describe('stdin through the front', () => {
  test('a payload that never ends: no opinion at the deadline, and the process ends', async () => {
    const temp = freshTemp();
    const traceFile = join(temp, 'trace-held.jsonl');
    const started = Date.now();
    const child = spawn(process.execPath, [served], {
      cwd: temp,
      env: { ...callEnv({ temp }), KIT_HOOKS_TRACE: traceFile },
    });
    child.stdin.write(deny.slice(0, 20)); // and never ended
    const run = await collectOutput(child);
    const ms = Date.now() - started;
    child.stdin.destroy();
    expect([run.exitCode, run.stdout, run.stderr]).toEqual([0, '', '']);
    expect(ms).toBeGreaterThanOrEqual(2900);
    expect(ms).toBeLessThan(6000);
    const line = JSON.parse(readFileSync(traceFile, 'utf8').trim()) as Record<string, unknown>;
    expect(line).toMatchObject({
      verdict: 'none',
      cause: 'stdin-timeout',
      path: 'in-process',
      server: 'stdin',
    });
  }, 15_000);

  test('the control: the same payload ended is judged', async () => {
    const temp = freshTemp();
    const call = await callHook(served, deny, { temp });
    expect(output(call)).toEqual([0, denyOf('make test | tail -5', temp), '']);
  });

  test('a payload in many writes, spread over time, is read whole', async () => {
    const temp = freshTemp();
    const child = spawn(process.execPath, [served], { cwd: temp, env: callEnv({ temp }) });
    for (let i = 0; i < deny.length; i += 7) {
      child.stdin.write(deny.slice(i, i + 7));
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    child.stdin.end();
    const run = await collectOutput(child);
    expect([run.exitCode, run.stdout, run.stderr]).toEqual([0, denyOf('make test | tail -5', temp), '']);
  });
});

describe('a stale claim: in process, and a new server takes the mailbox over', () => {
  test('left by a SIGKILLed server', async () => {
    const temp = freshTemp();
    await callHook(served, deny, { temp });
    await warmServer(served, { temp });
    const killed = onlyServer(served);
    process.kill(killed, 'SIGKILL');
    await waitFor(() => !alive(killed));
    const { mailbox } = mailboxFor(served, { temp });
    expect(readFileSync(join(mailbox, 'server'), 'utf8')).toBe(String(killed)); // still there, its pid ended
    expect(await pingVerdictServer(mailbox, mailboxFor(served, { temp }).key, 1000)).toBe(false);

    const call = await callHook(served, deny, { temp });
    expect(output(call)).toEqual([0, denyOf('make test | tail -5', temp), '']);
    expect(call.trace).toMatchObject({ verdict: 'deny', path: 'in-process', server: 'stale' });
    const later = await warmServer(served, { temp });
    expect(later.trace).toMatchObject({ path: 'server' });
    expect(serverPids(served)).toHaveLength(1);
    expect(serverPids(served)).not.toContain(killed);
  }, 30_000);
});

describe('a server that does not take the call in time costs one bounded wait, and is never replaced', () => {
  test('a real server, SIGSTOPped: in process, nothing started; running again, it serves', async () => {
    const temp = freshTemp();
    await callHook(served, deny, { temp });
    await warmServer(served, { temp });
    const stopped = onlyServer(served);
    const baseline = await callHook(served, deny, { temp, env: { KIT_HOOKS_SERVER: 'off' } });
    process.kill(stopped, 'SIGSTOP');
    onTestFinished(() => {
      try {
        process.kill(stopped, 'SIGKILL');
      } catch {
        // ended
      }
    });
    for (let i = 0; i < 2; i++) {
      const waited = await callHook(served, deny, { temp });
      expect(output(waited)).toEqual(output(baseline));
      expect(waited.trace).toMatchObject({ verdict: 'deny', path: 'in-process', server: 'busy' });
      expect(waited.trace?.serverMs).toBeGreaterThanOrEqual(replyBoundMs - 1);
    }
    await new Promise((resolve) => setTimeout(resolve, 500)); // a server started would be running by now
    expect(serverPids(served)).toEqual([stopped]);
    process.kill(stopped, 'SIGCONT');
    const later = await warmServer(served, { temp });
    expect(later.trace).toMatchObject({ verdict: 'deny', path: 'server' });
    expect(output(later)).toEqual(output(baseline));
    expect(serverPids(served)).toEqual([stopped]);
  }, 30_000);

  test('a stand-in that holds the mailbox and never takes a request: busy each time, withdrawn', async () => {
    const temp = freshTemp();
    const { mailbox } = mailboxFor(served, { temp });
    const fake = await fakeServer(mailbox, undefined, { take: false });
    onTestFinished(() => fake.close());
    for (const seen of [1, 2]) {
      const call = await callHook(served, deny, { temp });
      expect(call.trace).toMatchObject({ verdict: 'deny', path: 'in-process', server: 'busy' });
      expect(fake.seen()).toBe(seen);
      // Withdrawn: nothing of the call's is left.
      expect([readdirSync(fake.mailbox).sort(), readdirSync(join(fake.mailbox, 'work'))]).toEqual([
        ['server', 'work'],
        [],
      ]);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(serverPids(served)).toEqual([]); // its claim names a process that runs: nothing started
  }, 30_000);
});

test('a busy server (it has taken another call, and is still answering it) is not replaced', async () => {
  const temp = freshTemp();
  await callHook(served, deny, { temp });
  await warmServer(served, { temp });
  const server = onlyServer(served);
  const evaluating = join(temp, 'evaluating');
  const slow = callHook(served, bashPayload('slow 1500'), { temp, env: { FIXTURE_EVALUATING: evaluating } });
  expect(await waitFor(() => existsSync(evaluating), 5000, 5)).toBe(true);
  const queued = await callHook(served, deny, { temp });
  expect(output(queued)).toEqual([0, denyOf('make test | tail -5', temp), '']);
  expect(queued.trace).toMatchObject({ verdict: 'deny', path: 'in-process', server: 'busy' });
  expect(queued.trace?.serverMs).toBeGreaterThanOrEqual(replyBoundMs - 1);
  // The slow call was taken before: the server answers it, and only the server.
  expect((await slow).trace).toMatchObject({ path: 'server' });
  // The call that gave up was dropped by the server when its turn came: judged once, in process.
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect([queued.traceLines, traceLineCount(queued.traceFile)]).toEqual([1, 1]);
  const later = await warmServer(served, { temp });
  expect(later.trace).toMatchObject({ path: 'server' });
  expect(serverPids(served)).toEqual([server]);
}, 20_000);

describe('a reply that is not this bundle\u2019s server\u2019s answer: in process, the right verdict', () => {
  const fakeReplies: [string, (key: string) => string, string][] = [
    [
      'another key (another version)',
      () => JSON.stringify({ key: 'other', stdout: 'FAKE\n', stderr: '', exitCode: 0 }),
      'wrong-version',
    ],
    ['garbage', () => 'not json at all', 'malformed'],
    ['a JSON array', (key) => JSON.stringify([key, 'FAKE\n', '', 0]), 'malformed'],
    ['exitCode 1', (key) => JSON.stringify({ key, stdout: 'FAKE\n', stderr: '', exitCode: 1 }), 'malformed'],
    ['no stdout', (key) => JSON.stringify({ key, stderr: '', exitCode: 0 }), 'malformed'],
    ['nothing at all', () => '', 'malformed'],
  ];
  test('the control: a stand-in that answers with the key is believed', async () => {
    const temp = freshTemp();
    const { mailbox, key } = mailboxFor(served, { temp });
    const fake = await fakeServer(mailbox, () => ({
      reply: JSON.stringify({ key, stdout: 'FAKE\n', stderr: '', exitCode: 0 }),
    }));
    onTestFinished(() => fake.close());
    const call = await callHook(served, deny, { temp });
    expect(output(call)).toEqual([0, 'FAKE\n', '']);
  });
  test.for(fakeReplies)('%s', async ([, reply, why]) => {
    const temp = freshTemp();
    const { mailbox, key } = mailboxFor(served, { temp });
    const requests: string[] = [];
    const fake = await fakeServer(mailbox, (request) => {
      requests.push(request);
      return { reply: reply(key) };
    });
    onTestFinished(() => fake.close());
    const call = await callHook(served, deny, { temp });
    expect(requests).toHaveLength(1);
    expect(output(call)).toEqual([0, denyOf('make test | tail -5', temp), '']);
    expect(call.trace).toMatchObject({ verdict: 'deny', path: 'in-process', server: why });
  });
});

test('the loader as a build prints it names nothing beyond its parameters and Node\u2019s globals', {
  timeout: 60_000,
}, () => {
  const loader = loaderOf(readFileSync(served, 'utf8'));
  expect(loader).toContain('--kit-serve-verdicts');
  expect(freeNames(loader)).toEqual([]);
});

test('the server answers only a request that names its key', async () => {
  const temp = freshTemp();
  await callHook(served, deny, { temp });
  const warm = await warmServer(served, { temp });
  const { mailbox, key } = mailboxFor(served, { temp });
  const request = (requestKey: string): string =>
    JSON.stringify({
      v: mailboxProtocol.version,
      key: requestKey,
      args: [],
      cwd: temp,
      umask: 0o22,
      env: {},
      expires: Date.now() + 60_000,
      calledAt: Date.now(),
      stdin: deny,
    });
  const right = JSON.parse((await askMailbox(mailbox, request(key))) ?? '') as {
    key: string;
    stdout: string;
  };
  expect(right).toMatchObject({ key, stdout: denyOf('make test | tail -5', temp) });
  // Another key: a doubt, never a verdict, so the call judges itself.
  expect(JSON.parse((await askMailbox(mailbox, request(`${key}0`))) ?? '')).toEqual({
    key,
    doubt: 'request',
  });
  expect(JSON.parse((await askMailbox(mailbox, 'not json')) ?? '')).toEqual({
    key,
    doubt: 'request',
  });
  expect(output(await callHook(served, deny, { temp }))).toEqual(output(warm));
});

describe('a server that dies mid-request: in process', () => {
  test('a stand-in that takes the request and drops it unanswered', async () => {
    const temp = freshTemp();
    const { mailbox } = mailboxFor(served, { temp });
    const fake = await fakeServer(mailbox, () => 'drop');
    onTestFinished(() => fake.close());
    const call = await callHook(served, deny, { temp });
    expect(output(call)).toEqual([0, denyOf('make test | tail -5', temp), '']);
    expect(call.trace).toMatchObject({ verdict: 'deny', path: 'in-process' });
    expect(call.trace?.server).toBe('dropped');
  });

  /**
   * A stand-in that takes each request and holds it, its mailbox naming as the server a process of
   * the test's own (`named`), which the test can end while a call waits.
   */
  async function holdingStandIn(temp: string) {
    const { mailbox, key } = mailboxFor(served, { temp });
    const fake = await fakeServer(mailbox, () => 'hold');
    onTestFinished(() => fake.close());
    const named = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'ignore' });
    onTestFinished(() => void named.kill('SIGKILL'));
    writeFileSync(join(fake.mailbox, 'server'), String(named.pid));
    return { fake, key, named };
  }

  test('a stand-in that takes the request and then dies (its pid gone): in process at once', async () => {
    const temp = freshTemp();
    // Its named process is killed once the request is taken.
    const { fake, named: stand } = await holdingStandIn(temp);
    const slow = callHook(served, deny, { temp });
    expect(await waitFor(() => fake.seen() === 1, 5000, 2)).toBe(true);
    stand.kill('SIGKILL');
    const call = await slow;
    expect(output(call)).toEqual([0, denyOf('make test | tail -5', temp), '']);
    expect(call.trace).toMatchObject({ verdict: 'deny', path: 'in-process', server: 'gone' });
    expect(call.trace?.serverMs).toBeLessThan(1500); // not the taken bound (3.5 s)
  });

  test('the server named when the call began ends while its replacement answers it: the call waits', async () => {
    const temp = freshTemp();
    // The stand-in plays the replacement, which took the call; `old` is the server it replaces.
    const { fake, key, named: old } = await holdingStandIn(temp);
    const pending = callHook(served, deny, { temp });
    expect(await waitFor(() => fake.seen() === 1, 5000, 2)).toBe(true);
    writeFileSync(join(fake.mailbox, 'server'), String(process.pid)); // the replacement names itself
    old.kill('SIGKILL'); // and the old one, its name taken, ends
    await new Promise((resolve) => setTimeout(resolve, 300));
    const work = join(fake.mailbox, 'work');
    const [taken] = readdirSync(work).filter((name) => name.endsWith('.taken'));
    expect(taken).toBeDefined();
    const id = (taken ?? '').slice(0, -'.taken'.length);
    replyInMailbox(fake.mailbox, id, JSON.stringify({ key, stdout: 'ANSWERED\n', stderr: '', exitCode: 0 }));
    rmSync(join(work, `${id}.taken`), { force: true });
    const call = await pending;
    expect(output(call)).toEqual([0, 'ANSWERED\n', '']); // answered once, by the server that took it
  });

  test('a real server SIGKILLed during a slow evaluate', async () => {
    const temp = freshTemp();
    await callHook(served, deny, { temp });
    await warmServer(served, { temp });
    const server = onlyServer(served);
    const evaluating = join(temp, 'evaluating');
    const pending = callHook(served, bashPayload('slow 1000'), {
      temp,
      env: { FIXTURE_EVALUATING: evaluating },
    });
    // Killed as soon as it is evaluating the call, while the call waits on it (within the bound).
    expect(await waitFor(() => existsSync(evaluating), 5000, 2)).toBe(true);
    process.kill(server, 'SIGKILL');
    const call = await pending;
    expect(output(call)).toEqual([0, denyOf('slow 1000', temp), '']);
    expect(call.trace).toMatchObject({ verdict: 'deny', path: 'in-process' });
    // Its pid gone, the call stops waiting, however long the bound.
    expect(call.trace?.server).toBe('gone');
    console.log('killed mid-request, the call said:', call.trace?.server, call.trace?.serverMs, 'ms');
  }, 20_000);

  test('a server that cannot take its name is not started again on every call', async () => {
    const temp = freshTemp();
    const { mailbox } = mailboxFor(served, { temp });
    // Something of the user's own where the mailbox's claim goes: the server can never claim it.
    mkdirSync(join(mailbox, 'server', 'kept'), { recursive: true, mode: 0o700 });
    mkdirSync(join(mailbox, 'work'), { mode: 0o700 });
    chmodSync(mailbox, 0o700);
    chmodSync(serverFolder(temp), 0o700);
    const log = join(temp, 'warm-ups');
    for (let i = 0; i < 4; i++) {
      const call = await callHook(served, deny, { temp, env: { FIXTURE_WARM_UP_LOG: log } });
      expect(output(call)).toEqual([0, denyOf('make test | tail -5', temp), '']);
      expect(call.trace).toMatchObject({ path: 'in-process', server: 'none' });
      await new Promise((resolve) => setTimeout(resolve, 400)); // that start has failed by now
    }
    // It ends before its warm-up (the claim comes first), and leaves the start marker: the calls
    // start no other until the marker is old.
    expect(existsSync(log)).toBe(false);
    expect(existsSync(`${mailbox}.starting`)).toBe(true);
    expect(serverPids(served)).toEqual([]);
    expect(readdirSync(join(mailbox, 'server'))).toEqual(['kept']);
  }, 20_000);
});

test('a long temp path still gets a server: no socket, so no sun_path limit', async () => {
  const base = freshTemp();
  const { mailbox } = mailboxFor(served, { temp: base });
  const temp = join(base, 'p'.repeat(100 - Buffer.byteLength(mailbox)));
  mkdirSync(temp);
  expect(Buffer.byteLength(mailboxFor(served, { temp }).mailbox)).toBeGreaterThan(100);
  await callHook(served, deny, { temp });
  const later = await warmServer(served, { temp });
  expect(later.trace).toMatchObject({ path: 'server' });
}, 20_000);

describe('concurrent calls', () => {
  // Dozens of node processes at once on a loaded machine: a call may not even read its stdin, there
  // all along, by the deadline (3 s after its start, as in process; measured with a bare node child
  // too). That call never asked the server and fails open, as the runtime promises; every call that
  // asked must be right.
  const wrongAnswers = (runs: ServedCall[], expected: (i: number) => string): unknown[] =>
    runs
      .filter((run, i) =>
        run.trace?.server === 'stdin'
          ? run.stdout !== '' || run.trace.cause !== 'stdin-timeout'
          : run.stdout !== expected(i) || run.exitCode !== 0 || run.stderr !== '',
      )
      .map((run) => ({ ms: Math.round(run.ms), trace: run.trace, stdout: run.stdout, stderr: run.stderr }));
  const byPath = (runs: ServedCall[]): string =>
    JSON.stringify(tally(runs.map((run) => `${run.trace?.path}:${run.trace?.server ?? ''}`)));

  test('20 at once with no server: every answer right, at most one server left listening', async () => {
    const temp = freshTemp();
    const runs = await Promise.all(Array.from({ length: 20 }, () => callHook(served, deny, { temp })));
    expect(wrongAnswers(runs, () => denyOf('make test | tail -5', temp))).toEqual([]);
    expect(runs.filter((run) => run.trace?.server === 'none').length).toBeGreaterThan(0);
    expect(await waitFor(() => serverStatus(served, { temp }).server === 'listening')).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 1500)); // any loser of a race has ended by now
    expect(serverPids(served).length).toBeLessThanOrEqual(1);
    console.log('20 concurrent calls, no server, by path:', byPath(runs));
  }, 60_000);

  test('50 at once against a warm server: every answer right', async () => {
    const temp = freshTemp();
    await callHook(served, deny, { temp });
    const warm = await warmServer(served, { temp });
    const runs = await Promise.all(
      Array.from({ length: 50 }, (_, i) => callHook(served, i % 2 === 0 ? deny : pass, { temp })),
    );
    expect(wrongAnswers(runs, (i) => (i % 2 === 0 ? warm.stdout : ''))).toEqual([]);
    expect(runs.filter((run) => run.trace?.path === 'server').length).toBeGreaterThan(0);
    console.log(
      '50 concurrent calls, warm server, by path:',
      byPath(runs),
      'servers',
      serverPids(served).length,
    );
  }, 60_000);
});

function tally(values: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}

describe('a server folder that is not safe: in process, no server, nothing changed', () => {
  const shapes: [string, (folder: string, temp: string) => void][] = [
    [
      'owned by another user',
      (folder) => {
        mkdirSync(folder, { mode: 0o700 });
        chownSync(folder, 65534, 65534);
      },
    ],
    [
      'mode 0777',
      (folder) => {
        mkdirSync(folder);
        chmodSync(folder, 0o777);
      },
    ],
    [
      'a symlink to a folder of the user\u2019s own',
      (folder, temp) => {
        const target = join(temp, 'elsewhere');
        mkdirSync(target, { mode: 0o700 });
        symlinkSync(target, folder);
      },
    ],
  ];
  test.for(shapes)('%s', async ([, make]) => {
    if (uid !== 0 && make === shapes[0]?.[1]) return; // chown needs root
    const temp = freshTemp();
    const folder = serverFolder(temp);
    make(folder, temp);
    const before = lstatSync(folder);
    const call = await callHook(served, deny, { temp });
    expect(output(call)).toEqual([0, denyOf('make test | tail -5', temp), '']);
    expect(call.trace).toMatchObject({ verdict: 'deny', path: 'in-process', server: 'unsafe-folder' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(serverPids(served)).toEqual([]);
    const after = lstatSync(folder);
    expect([after.uid, after.mode, after.ino]).toEqual([before.uid, before.mode, before.ino]);
    expect(readdirSync(folder)).toEqual([]);
  });
});

test('KIT_HOOKS_SERVER=off: in process, nothing created', async () => {
  const temp = freshTemp();
  for (const value of ['off', 'OFF', '0', 'false', 'no', 'disabled']) {
    const call = await callHook(served, deny, { temp, env: { KIT_HOOKS_SERVER: value } });
    expect(output(call)).toEqual([0, denyOf('make test | tail -5', temp), '']);
    expect(call.trace).toMatchObject({ verdict: 'deny', path: 'in-process', server: 'off' });
  }
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(existsSync(serverFolder(temp))).toBe(false);
  expect(serverPids(served)).toEqual([]);
}, 30_000);

describe('the temp folder is the user\u2019s: a call or a server never makes it', () => {
  test('a TMPDIR that is not there: in process, no server, and it is still not there', async () => {
    const temp = freshTemp();
    const missing = join(temp, 'missing');
    const call = await callHook(served, deny, { temp, env: { TMPDIR: missing } });
    expect(output(call)).toEqual([0, denyOf('make test | tail -5', temp), '']);
    expect(call.trace).toMatchObject({ verdict: 'deny', path: 'in-process', server: 'none' });
    await new Promise((resolve) => setTimeout(resolve, 500)); // a server started would have made it by now
    expect(existsSync(missing)).toBe(false);
    expect(serverPids(served)).toEqual([]);
  });

  // Issue 23: a relative TMPDIR changes where caches go, never whether the guard judges. The front
  // uses no server from a relative temp folder (it would resolve against each call's cwd) and the
  // body judges in process; the control is the same call with the absolute spelling.
  test.for([
    ['a relative TMPDIR: judged in process, no server, nothing made under the cwd', 'relative'],
    ['the control: the absolute TMPDIR of the same folder is the server\u2019s', 'absolute'],
  ] as const)('%s', async ([, spelling]) => {
    const temp = freshTemp();
    mkdirSync(join(temp, 'tmp'));
    const tmpdir = spelling === 'relative' ? 'tmp' : join(temp, 'tmp');
    const call = await callHook(served, deny, { temp, env: { TMPDIR: tmpdir } });
    expect(output(call)).toEqual([0, denyOf('make test | tail -5', temp), '']);
    if (spelling === 'relative') {
      expect(call.trace).toMatchObject({ verdict: 'deny', path: 'in-process', server: 'relative-temp' });
      expect(readdirSync(join(temp, 'tmp'))).toEqual([]);
      return;
    }
    expect(call.trace).toMatchObject({ verdict: 'deny', path: 'in-process', server: 'none' });
    expect((await warmServer(served, { temp, env: { TMPDIR: tmpdir } })).trace).toMatchObject({
      path: 'server',
    });
  });

  // A server starts after the call that started it has answered: its temp folder (a test's, say)
  // may be removed by then. Started straight into that state, it ends and brings nothing back.
  test.for([
    ['its temp folder removed before it starts: it ends, and makes nothing', false],
    ['the control: its folder made, as the call that starts it makes it: it listens', true],
  ] as const)('%s', async ([, made]) => {
    const temp = freshTemp();
    const gone = join(temp, 'gone');
    if (made) mkdirSync(join(gone, `kit-hooks-${uid}`), { recursive: true, mode: 0o700 });
    const server = spawn(process.execPath, [served, '--kit-serve-verdicts'], {
      cwd: temp,
      env: callEnv({ temp: gone, env: { KIT_HOOKS_SERVER_IDLE_SECONDS: '2' } }),
      stdio: 'ignore',
    });
    const ended = new Promise((resolve) => server.on('exit', resolve));
    if (made) {
      expect(await waitFor(() => serverStatus(served, { temp: gone }).server === 'listening')).toBe(true);
    } else {
      await ended;
      expect(existsSync(gone)).toBe(false);
    }
    await ended;
  });
});

describe('fidelity: the call\u2019s environment, cwd and files decide, not what the server saw', () => {
  test('a switch, the cwd and a file change between calls to one warm server', async () => {
    const temp = freshTemp();
    const one = join(temp, 'one');
    const two = join(temp, 'two');
    mkdirSync(one);
    mkdirSync(two);
    writeFileSync(join(one, 'policy.txt'), 'alpha\n');
    await callHook(served, deny, { temp, cwd: one, env: { FIXTURE_SWITCH: 'on' } });
    const reason = (cwd: string, extra: string, policy: string): string =>
      denyLine(`fixture-guard: make test | tail -5 (${extra}, cwd ${cwd}, policy ${policy}, build plain)`);

    const on = await warmServer(served, { temp, cwd: one, env: { FIXTURE_SWITCH: 'on' } });
    expect(on.trace).toMatchObject({ path: 'server' });
    expect(on.stdout).toBe(reason(one, 'switch on/on', 'alpha'));
    const off = await callHook(served, deny, { temp, cwd: one, env: { FIXTURE_SWITCH: 'off' } });
    expect(off.trace).toMatchObject({ verdict: 'none', path: 'server' });
    expect(output(off)).toEqual([0, '', '']);
    const unset = await callHook(served, deny, { temp, cwd: one });
    expect(unset.trace).toMatchObject({ path: 'server' });
    expect(unset.stdout).toBe(reason(one, 'switch unset/unset', 'alpha'));
    const elsewhere = await callHook(served, deny, { temp, cwd: two });
    expect(elsewhere.trace).toMatchObject({ path: 'server' });
    expect(elsewhere.stdout).toBe(reason(two, 'switch unset/unset', 'none'));
    writeFileSync(join(one, 'policy.txt'), 'beta\n');
    const changed = await callHook(served, deny, { temp, cwd: one });
    expect(changed.trace).toMatchObject({ path: 'server' });
    expect(changed.stdout).toBe(reason(one, 'switch unset/unset', 'beta'));
    // Between calls the server is back in its own folder: it holds no folder of the user's open.
    expect(readlinkSync(`/proc/${onlyServer(served)}/cwd`)).toBe(serverFolder(temp));
  }, 30_000);

  test('a relative KIT_HOOKS_TRACE lands relative to the call\u2019s cwd', async () => {
    const temp = freshTemp();
    const cwd = join(temp, 'project');
    mkdirSync(cwd);
    await callHook(served, deny, { temp });
    await warmServer(served, { temp });
    const call = await callHook(served, deny, {
      temp,
      cwd,
      env: { KIT_HOOKS_TRACE: 'relative-trace.jsonl' },
    });
    expect(call.stdout).toBe(denyOf('make test | tail -5', cwd));
    const line = JSON.parse(readFileSync(join(cwd, 'relative-trace.jsonl'), 'utf8')) as { path: string };
    expect(line.path).toBe('server');
    expect(existsSync(join(serverFolder(temp), 'relative-trace.jsonl'))).toBe(false);
  });
});

test('what calls left in the mailbox a minute ago goes when a server starts; a fresh file stays', async () => {
  const temp = freshTemp();
  const { mailbox } = mailboxFor(served, { temp });
  const work = join(mailbox, 'work');
  mkdirSync(work, { recursive: true, mode: 0o700 });
  chmodSync(serverFolder(temp), 0o700);
  chmodSync(mailbox, 0o700);
  const old = join(work, 'left-by-a-killed-call.reply');
  const fresh = join(work, 'still-being-written.tmp');
  writeFileSync(old, '{}');
  writeFileSync(fresh, '{}');
  const minutesAgo = new Date(Date.now() - 120_000);
  utimesSync(old, minutesAgo, minutesAgo);
  await callHook(served, deny, { temp });
  expect((await warmServer(served, { temp })).trace).toMatchObject({ path: 'server' });
  expect(readdirSync(work)).toEqual(['still-being-written.tmp']);
});

test('the quiet period: with KIT_HOOKS_SERVER_IDLE_SECONDS=1 the server ends and removes its mailbox', async () => {
  const temp = freshTemp();
  const quick = { KIT_HOOKS_SERVER_IDLE_SECONDS: '1' };
  await callHook(served, deny, { temp, env: quick });
  const answered = await warmServer(served, { temp, env: quick });
  expect(answered.trace).toMatchObject({ path: 'server' });
  const server = onlyServer(served);
  const { mailbox } = mailboxFor(served, { temp });
  expect(await waitFor(() => !alive(server), 4000)).toBe(true);
  expect(existsSync(mailbox)).toBe(false);
  expect(readdirSync(serverFolder(temp))).toEqual([]);
});

test('an upgraded bundle (one constant changed) uses a mailbox of its own, never the old server', async () => {
  const temp = freshTemp();
  const upgraded = mkdtempSync(join(tmpdir(), 'kit-vs-upgraded-'));
  onTestFinished(() => rmSync(upgraded, { recursive: true, force: true }));
  await buildServedBundles(upgraded, 'upgraded');
  const newer = join(upgraded, 'served.cjs');
  extraBundles.push(newer);
  expect(readFileSync(newer, 'utf8')).not.toBe(readFileSync(served, 'utf8'));

  await callHook(served, deny, { temp });
  await warmServer(served, { temp });
  expect(mailboxFor(newer, { temp }).mailbox).not.toBe(mailboxFor(served, { temp }).mailbox);
  const first = await callHook(newer, deny, { temp });
  expect(first.trace).toMatchObject({ path: 'in-process', server: 'none' });
  const later = await warmServer(newer, { temp });
  expect(later.trace).toMatchObject({ path: 'server' });
  expect(later.stdout).toContain('build upgraded');
  expect(serverPids(newer)).toHaveLength(1);
  expect(serverPids(served)).toHaveLength(1);
  const old = await callHook(served, deny, { temp });
  expect(old.stdout).toContain('build plain');
  expect(old.trace).toMatchObject({ path: 'server' });
}, 60_000);

describe('strict keeps its meaning through the server', () => {
  const payloads: [string, string, number][] = [
    ['a call the guard cannot judge', deny, 2],
    ['invalid JSON', '{"tool_name": "Ba', 2],
    ['not an object', '[]', 2],
    ['a call it passes', pass, 0],
  ];
  test.for(payloads)('%s: the same exit code and stderr both ways', async ([, stdin, exitCode]) => {
    const temp = freshTemp();
    const inProcess = await callHook(strict, stdin, { temp, env: { KIT_HOOKS_SERVER: 'off' } });
    expect(inProcess.exitCode).toBe(exitCode);
    await callHook(strict, pass, { temp });
    const through = await warmServer(strict, { temp }, stdin);
    expect(through.trace).toMatchObject({ path: 'server' });
    expect(output(through)).toEqual(output(inProcess));
  });

  test.for([
    ['invalid JSON', '{"tool_name": "Ba'],
    ['empty', ''],
    ['not an object', 'null'],
  ])('%s, to the guard that is not strict: no opinion both ways', async ([, stdin]) => {
    const temp = freshTemp();
    const inProcess = await callHook(served, stdin ?? '', { temp, env: { KIT_HOOKS_SERVER: 'off' } });
    await callHook(served, pass, { temp });
    const through = await warmServer(served, { temp }, stdin);
    expect(through.trace).toMatchObject({ path: 'server' });
    expect(output(through)).toEqual(output(inProcess));
    expect(output(through)).toEqual([0, '', '']);
  });
});

describe('no secrets on disk, no call judged after it stopped waiting', () => {
  const planted = {
    ANTHROPIC_API_KEY: 'planted-anthropic',
    GITHUB_TOKEN: 'planted-github',
    NPM_TOKEN: 'planted-npm',
    AWS_SECRET_ACCESS_KEY: 'planted-aws',
    CLAUDE_CODE_OAUTH_TOKEN: 'planted-oauth',
    DATABASE_URL: 'postgres://planted',
  };

  test('a request holds only the variables the runtime and the guard read', async () => {
    const temp = freshTemp();
    const { mailbox } = mailboxFor(served, { temp });
    const requests: string[] = [];
    const fake = await fakeServer(mailbox, (request) => {
      requests.push(request);
      return 'drop';
    });
    onTestFinished(() => fake.close());
    const call = await callHook(served, deny, { temp, env: { ...planted, FIXTURE_SWITCH: 'on' } });
    expect(requests).toHaveLength(1);
    const text = requests[0] ?? '';
    expect(text).not.toContain('planted');
    expect(call.trace).toMatchObject({ verdict: 'deny', path: 'in-process', server: 'dropped' });
    const names = Object.keys((JSON.parse(text) as { env: Record<string, string> }).env);
    const listed = new Set([...runtimeVariables, ...fixtureEnvironment]);
    expect(names.filter((name) => !listed.has(name))).toEqual([]);
    // The control: what the guard reads is there.
    expect(names).toEqual(expect.arrayContaining(['FIXTURE_SWITCH', 'PATH', 'TMPDIR', 'KIT_HOOKS_TRACE']));
  });

  /** A request as a call leaves it, expiring at `expires`, its trace going to `trace`. */
  const requestOf = (key: string, temp: string, trace: string, expires: number): string =>
    `${JSON.stringify({ v: mailboxProtocol.version, key, args: [], cwd: temp, umask: 0o22, env: { KIT_HOOKS_TRACE: trace }, expires, calledAt: expires - 3500, stdin: deny })}\n`;

  test.for([
    ['an hour-old request is dropped, never judged', -3_600_000, 0],
    ['the control: a request within its expiry is judged', 60_000, 1],
  ] as const)('%s', { timeout: 30_000 }, async ([, offset, judged]) => {
    const temp = freshTemp();
    await callHook(served, deny, { temp });
    await warmServer(served, { temp });
    const { mailbox, key } = mailboxFor(served, { temp });
    const trace = join(temp, 'planted-trace.jsonl');
    const reply = await askMailbox(mailbox, requestOf(key, temp, trace, Date.now() + offset), 1500);
    expect(reply === null ? 0 : 1).toBe(judged);
    expect(traceLineCount(trace)).toBe(judged);
    expect(readdirSync(mailbox).filter((name) => name !== 'server' && name !== 'work')).toEqual([]);
    expect(readdirSync(join(mailbox, 'work'))).toEqual([]);
  });

  test('a call killed while its request waits: the request goes, never judged', async () => {
    const temp = freshTemp();
    await callHook(served, deny, { temp });
    await warmServer(served, { temp });
    const server = onlyServer(served);
    const mailbox = mailboxFor(served, { temp }).mailbox;
    process.kill(server, 'SIGSTOP');
    onTestFinished(() => {
      try {
        process.kill(server, 'SIGKILL');
      } catch {
        // ended
      }
    });
    const trace = join(temp, 'killed-trace.jsonl');
    const pending = (): string[] => readdirSync(mailbox).filter((name) => name.endsWith('.req'));
    // Caught between leaving its request and withdrawing it (40 ms later): stopped, then killed.
    let caught = false;
    for (let attempt = 0; attempt < 30 && !caught; attempt++) {
      const call = spawn(process.execPath, [served], {
        cwd: temp,
        env: { ...callEnv({ temp }), KIT_HOOKS_TRACE: trace },
      });
      call.stdin.end(deny);
      await waitFor(() => pending().length > 0 || call.exitCode !== null, 10_000, 1);
      try {
        process.kill(call.pid ?? 0, 'SIGSTOP');
      } catch {
        // it ended: try again
      }
      caught = pending().length > 0;
      call.kill('SIGKILL');
      await new Promise((resolve) => call.on('close', resolve));
      if (!caught) rmSync(trace, { force: true });
    }
    expect(caught).toBe(true);
    const [left] = pending();
    const request = JSON.parse(readFileSync(join(mailbox, left ?? ''), 'utf8')) as { expires?: number };
    const expires = request.expires ?? Date.now() + 4000; // a request with no expiry (before it had one)
    expect(await waitFor(() => Date.now() > expires, 10_000, 50)).toBe(true);
    process.kill(server, 'SIGCONT');
    expect(await waitFor(() => pending().length === 0, 5000)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 300)); // a judged call would have its trace line by now
    expect(traceLineCount(trace)).toBe(0);
    expect(readdirSync(join(mailbox, 'work'))).toEqual([]);
    expect(serverPids(served)).toEqual([server]);
  }, 60_000);
});

describe('a front and a body of two runtime versions: in process, never served', () => {
  // The front of a bundle built with another @kit/fail-open speaks another mailbox version (here the
  // front's own protocol data, set back to version 1): its body neither serves it nor is asked.
  const frontOf = (version: number) => (text: string) =>
    text.replace(`{version:${mailboxProtocol.version},claim:"server"`, `{version:${version},claim:"server"`);
  test.for([
    ['a front of mailbox version 1 over this body: every call in process, no server runs', 1],
    ['the control: the front of this version is served', mailboxProtocol.version],
  ] as const)('%s', { timeout: 30_000 }, async ([, version]) => {
    const temp = freshTemp();
    const folder = mkdtempSync(join(tmpdir(), 'kit-vs-foreign-'));
    onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
    const text = readFileSync(served, 'utf8');
    expect(text).toContain(`{version:${mailboxProtocol.version},claim:"server"`);
    const bundle = join(folder, 'served.cjs');
    writeFileSync(bundle, frontOf(version)(text));
    extraBundles.push(bundle);
    const baseline = await callHook(bundle, deny, { temp, env: { KIT_HOOKS_SERVER: 'off' } });
    await callHook(bundle, deny, { temp });
    const later = await warmServer(bundle, { temp });
    expect(output(later)).toEqual(output(baseline));
    expect(later.traceLines).toBe(1);
    if (version === mailboxProtocol.version) {
      expect(later.trace).toMatchObject({ path: 'server' });
      return;
    }
    expect(later.trace).toMatchObject({ path: 'in-process' });
    // A server it started (node takes a while to start on a loaded machine) ends without serving.
    expect(await waitFor(() => serverPids(bundle).length === 0, 10_000)).toBe(true);
  });
});
