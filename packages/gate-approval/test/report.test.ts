// `report`: the audit trail of every guard, counted by guard, rule and repository; filters both
// ways (a row kept, a row left out); a guard's own sections folded in; --json for scripts.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hookEnv, runHookFile, tempDir, tempTree } from '@kit/test-kit';
import { describe, expect, test } from 'vitest';
import type { AuditEvent } from '../src/audit-log.ts';
import type { GuardDefinition } from '../src/guard.ts';
import { cli, makeGuard } from './cli-harness.ts';

const repos = tempTree({ 'app/.git/HEAD': 'ref: refs/heads/main\n', 'app/src/x': '', 'lib/.git/HEAD': '' });
const app = join(repos, 'app');
const lib = join(repos, 'lib');
const day = (d: number) => `2026-11-${String(d).padStart(2, '0')}T10:00:00.000Z`;
const events: AuditEvent[] = [
  { time: day(1), guard: 'git-write-gate', event: 'deny', rule: 'push', cwd: app, command: 'git push' },
  { time: day(2), guard: 'git-write-gate', event: 'deny', rule: 'push', cwd: join(app, 'src') },
  {
    time: day(3),
    guard: 'git-write-gate',
    event: 'escape',
    rule: 'push',
    cwd: app,
    command: 'GIT_GATE=off git push',
  },
  { time: day(4), guard: 'exit-status-guard', event: 'deny', rule: 'pipe', cwd: lib },
  {
    time: day(5),
    guard: 'exit-status-guard',
    event: 'override',
    rule: 'pipe',
    cwd: lib,
    command: 'PIPE_OK=1 make | tail',
  },
  { time: day(6), guard: 'roseline-gate', event: 'would-deny', rule: 'csharp-read', cwd: lib },
  { time: day(7), guard: 'git-write-gate', event: 'refuse', rule: 'parse', cwd: app },
];

function stateWith(lines: string[]): string {
  const state = tempDir('report-state');
  mkdirSync(join(state, 'kit-hooks'), { recursive: true });
  writeFileSync(join(state, 'kit-hooks', 'audit.jsonl.1'), `${lines.slice(0, 2).join('\n')}\n`);
  writeFileSync(
    join(state, 'kit-hooks', 'audit.jsonl'),
    `${lines.slice(2).join('\n')}\nnot json\n{"time":1}\n`,
  );
  return state;
}
const state = stateWith(events.map((event) => JSON.stringify(event)));

async function report(
  args: string[],
  guard: GuardDefinition = makeGuard(),
  env: Record<string, string> = {},
) {
  const result = await cli(guard, ['report', ...args], {
    cwd: tempTree(),
    home: tempTree(),
    env: { XDG_STATE_HOME: state, ...env },
  });
  expect(result).toMatchObject({ code: 0, stderr: '' });
  return result;
}

describe('report --json: counts from both files, the rotated one first', () => {
  test('every question answered', async () => {
    const json = JSON.parse((await report(['--json'])).stdout);
    expect(json.events).toBe(7);
    expect(json.denied).toEqual([
      { count: 2, guard: 'git-write-gate', event: 'deny', rule: 'push', repository: app },
      { count: 1, guard: 'exit-status-guard', event: 'deny', rule: 'pipe', repository: lib },
      { count: 1, guard: 'git-write-gate', event: 'refuse', rule: 'parse', repository: app },
    ]);
    expect(json.monitored).toEqual([
      { count: 1, guard: 'roseline-gate', event: 'would-deny', rule: 'csharp-read', repository: lib },
    ]);
    expect(json.overridden.map((row: { event: string }) => row.event).sort()).toEqual(['escape', 'override']);
    expect(json.recent.map((row: { command: string }) => row.command)).toEqual([
      'PIPE_OK=1 make | tail',
      'GIT_GATE=off git push',
    ]);
  });

  test.for([
    ['--guard keeps one guard', ['--guard', 'exit-status-guard'], 2],
    ['--guard of a guard with no events', ['--guard', 'none-gate'], 0],
    ['--repo keeps a repository', ['--repo', '/app'], 4],
    ['--since a date keeps the later events', ['--since', '2026-11-05'], 3],
    ['--since all keeps every event', ['--since', 'all'], 7],
  ] as const)('%s', async ([, args, count]) => {
    expect(JSON.parse((await report([...args, '--json'])).stdout).events).toBe(count);
  });
});

test('the text answers in words, a section of the guard folded in', async () => {
  const guard = {
    ...makeGuard(),
    reportSections: async () => [
      { title: 'demo friction', lines: ['3 denied, 1 overridden'], data: { denied: 3 } },
    ],
  };
  const text = (await report([], guard)).stdout;
  expect(text).toContain(
    `report: the audit trail ${join(state, 'kit-hooks', 'audit.jsonl')}: 7 events since all`,
  );
  expect(text).toContain(`     2  git-write-gate  deny push  in ${app}`);
  expect(text).toContain('monitored: would have denied:\n     1  roseline-gate  would-deny csharp-read');
  expect(text).toContain('demo friction:\n  3 denied, 1 overridden');
  expect(JSON.parse((await report(['--json'], guard)).stdout).sections).toEqual([
    { title: 'demo friction', lines: ['3 denied, 1 overridden'], data: { denied: 3 } },
  ]);
});

test('the trail off: the report says so; a bad --since is a usage error', async () => {
  expect((await report([], makeGuard(), { KIT_HOOKS_AUDIT: 'off' })).stdout).toContain(
    'the audit trail is off',
  );
  const bad = await cli(makeGuard(), ['report', '--since', 'yesterday'], {
    cwd: tempTree(),
    home: tempTree(),
  });
  expect(bad).toMatchObject({ code: 1, stderr: 'report: --since takes 7d, 12h, 30m, YYYY-MM-DD or all\n' });
});

// Each doctor runs the positive control through the installed command: seconds on a loaded machine.
test('doctor`s positive control stays out of the audit trail; a real deny through the bundle is in it', {
  timeout: 120_000,
}, async () => {
  const guard = makeGuard();
  const root = tempTree();
  const home = tempTree();
  const own = tempDir('doctor-state');
  const where = { cwd: root, home, env: { XDG_STATE_HOME: own } };
  expect((await cli(guard, ['install', '--project'], where)).code).toBe(0);
  expect((await cli(guard, ['doctor', '--project'], where)).code).toBe(0);
  expect(JSON.parse((await cli(guard, ['report', '--json'], where)).stdout).events).toBe(0);
  // the control of the control: the same bundle, called as the host calls it, records its deny
  const bundle = join(root, '.claude', 'hooks', 'example-guard.mjs');
  const run = runHookFile(
    bundle,
    { tool_name: 'Bash', tool_input: { command: 'shred x' }, cwd: root },
    { env: hookEnv({ XDG_STATE_HOME: own }) },
  );
  expect(run.stdout).toContain('deny');
  expect(JSON.parse((await cli(guard, ['report', '--json'], where)).stdout).denied).toMatchObject([
    { count: 1, event: 'deny' },
  ]);
});
