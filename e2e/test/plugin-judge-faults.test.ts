import { existsSync } from 'node:fs';
import { copyFile, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { judgeInput } from '@kit/gate-approval';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { type ClaudeRun, runClaude } from '../src/claude.ts';
import type { ToolCall } from '../src/messages-api.ts';
import { unpackedPlugin } from '../src/plugin.ts';
import { describeRun } from '../src/scenario.ts';
import { removeScratch, scratchDir, scratchRepo } from '../src/scratch.ts';

const source = inject('kitSource');
afterAll(removeScratch);

// The MCP judge's faults in the real CLI, on the plugin route (`--plugin-dir`): the kit-judge
// plugin from its packed tarball, and two plugins whose handlers ask it for a fault module (a
// judge module as a guard's, fixtures/fault-judge.cjs, in a folder beside the judge's, where the
// judge finds a guard without an install record): `fault-open`, a fail-open handler as every
// guard plugin's, and `fault-strict`, the same handler with `"onFailure": "block"` as
// git-write-gate-strict's. Each plugin also has a handler, filtered by `if`, that names a guard no
// module serves: the judge answers it isError. One session with fault-open alone, one with both:
// - hung: the call is cancelled at the handler's timeout (3 s): it runs; beside strict, blocked;
// - isError: it runs; beside strict, blocked;
// - killed with the call in flight: it runs; beside strict, blocked;
// - and the next call is judged again (the host restarted the judge): denied, in both sessions.

type Fault = 'hang' | 'error' | 'crash' | 'ping';
// A ping first and last: the judge process that answers the last is not the one that answered the first.
const faults: Fault[] = ['ping', 'hang', 'error', 'crash', 'ping'];
const call = (fault: Fault): ToolCall => ({
  name: 'Bash',
  input: { command: `echo judge-${fault} >> ${fault}.ran`, description: `the judge's ${fault} fault` },
});

async function faultPlugin(dir: string, name: 'fault-open' | 'fault-strict'): Promise<string> {
  const root = join(dir, name);
  await mkdir(join(root, '.claude-plugin'), { recursive: true });
  await mkdir(join(root, 'hooks'), { recursive: true });
  await writeFile(join(root, '.claude-plugin', 'plugin.json'), JSON.stringify({ name, version: '0.0.0' }));
  const handler = (guard: string) => ({
    type: 'mcp_tool',
    server: 'plugin:kit-judge:judge',
    tool: 'judge',
    input: { guard, plugin: name, payload: judgeInput(guard).payload },
    timeout: 3,
    ...(name === 'fault-strict' ? { onFailure: 'block' } : {}),
  });
  const hooks = [handler('fault-guard'), { ...handler('no-such-guard'), if: 'Bash(echo judge-error*)' }];
  await writeFile(
    join(root, 'hooks', 'hooks.json'),
    JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks }] } }),
  );
  return root;
}

interface Session {
  project: string;
  run: ClaudeRun;
}
let open: Session;
let strict: Session;

beforeAll(async () => {
  const session = async (label: string, withStrict: boolean): Promise<Session> => {
    const { judgeDir } = await unpackedPlugin(source, 'exit-status-guard');
    const beside = join(judgeDir, '..');
    await mkdir(join(beside, 'fault-guard', 'dist'), { recursive: true });
    await copyFile(
      join(import.meta.dirname, '..', 'fixtures', 'fault-judge.cjs'),
      join(beside, 'fault-guard', 'dist', 'judge.cjs'),
    );
    const plugins = [judgeDir, await faultPlugin(beside, 'fault-open')];
    if (withStrict) plugins.push(await faultPlugin(beside, 'fault-strict'));
    const project = await scratchRepo(label);
    const run = await runClaude({
      cwd: project,
      home: await scratchDir(`${label}-home`),
      script: faults.map(call),
      args: plugins.flatMap((dir) => ['--plugin-dir', dir]),
      timeoutMs: 60_000,
    });
    return { project, run };
  };
  [open, strict] = await Promise.all([
    session('judge-faults-open', false),
    session('judge-faults-strict', true),
  ]);
}, 120_000);

const resultOf = (session: Session, fault: Fault) =>
  session.run.toolResults.find((result) => String(result.input.command).includes(`judge-${fault}`));

const hostWords = { hang: 'timed out', error: 'failed', crash: 'failed' } as const;

describe.for(['hang', 'error', 'crash'] as const)('the judge %s', (fault) => {
  test('a fail-open handler lets the call run', () => {
    expect(resultOf(open, fault)?.isError, describeRun(open.run)).toBe(false);
    expect(existsSync(join(open.project, `${fault}.ran`))).toBe(true);
  });

  test('beside the strict handler the call is blocked and does not run', () => {
    const result = resultOf(strict, fault);
    expect(result?.isError, describeRun(strict.run)).toBe(true);
    expect(result?.text).toContain(
      `[plugin:kit-judge:judge/judge]: ${hostWords[fault]}; blocking because onFailure is "block"`,
    );
    expect(existsSync(join(strict.project, `${fault}.ran`))).toBe(false);
  });
});

describe('after the judge was killed, the next call is judged again (the host restarted it)', () => {
  test.for([
    ['fault-open alone', () => open],
    ['beside fault-strict', () => strict],
  ] as const)('%s: denied by a new judge process', ([, of]) => {
    const session = of();
    const pings = session.run.toolResults.filter((result) =>
      String(result.input.command).includes('judge-ping'),
    );
    const pids = pings.map(
      (result) => /^PreToolUse:Bash hook error: fault-guard: judged by process (\d+)$/.exec(result.text)?.[1],
    );
    expect(
      pings.map((result) => result.isError),
      describeRun(session.run),
    ).toEqual([true, true]);
    expect(pids[0]).toBeDefined();
    expect(pids[1]).toBeDefined();
    expect(pids[1]).not.toBe(pids[0]);
    expect(existsSync(join(session.project, 'ping.ran'))).toBe(false);
  });
});

// Never silent: the kit-judge plugin's UserPromptSubmit hook tells the user once when the judge is
// not running in the session: its server cannot start (its entry removed from the unpacked judge
// plugin), or starts slower than MCP_TIMEOUT (1.5 s here; the host then marks it failed and never
// asks again). No handler gets a verdict; the notice reaches the run as the hook's systemMessage.
type JudgeState = 'judge removed' | 'judge slower than MCP_TIMEOUT' | 'judge running';
const states: JudgeState[] = ['judge removed', 'judge slower than MCP_TIMEOUT', 'judge running'];

async function noticeSession(state: JudgeState, index: number): Promise<ClaudeRun> {
  const { judgeDir, guardDir } = await unpackedPlugin(source, 'exit-status-guard');
  if (state === 'judge removed') await rm(join(judgeDir, 'dist', 'judge-plugin.cjs'));
  const slow: Record<string, string> =
    state === 'judge slower than MCP_TIMEOUT'
      ? {
          MCP_TIMEOUT: '1500',
          KIT_E2E_SLOW_START_MS: '6000',
          NODE_OPTIONS: `--require ${join(import.meta.dirname, '..', 'fixtures', 'slow-judge-start.cjs')}`,
        }
      : {};
  return runClaude({
    cwd: await scratchRepo(`judge-notice-${index}`, { Makefile: 'test:\n\techo ok\n' }),
    home: await scratchDir('judge-notice-home'),
    script: [{ name: 'Bash', input: { command: 'make test | tail -5', description: 'tests' } }],
    args: ['--plugin-dir', judgeDir, '--plugin-dir', guardDir, '--include-hook-events'],
    env: slow,
  });
}

describe('a judge that is not running is said to the user', () => {
  test('the prompt hook prints the notice when the judge was removed or slow; with it running (positive control), none', async () => {
    const runs = await Promise.all(states.map(noticeSession));
    const notices = runs.map((run) =>
      JSON.stringify(run.events).includes('MCP judge (plugin:kit-judge:judge) is not running'),
    );
    const shown = runs.map((run, i) => `${states[i]}:\n${describeRun(run)}`).join('\n');
    expect(notices, shown).toEqual([true, true, false]);
    // And the guard: unjudged without the judge, denied with it.
    expect(runs.map((run) => run.permissionDenials.length)).toEqual([0, 0, 1]);
  });
});
