// `statusline`: each kit guard the session's settings wire, in words, and this session's denies
// from the audit trail; composable with the user's own status line (`--then`). Rows both ways.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { recordingIO, tempDir, tempTree } from '@kit/test-kit';
import { describe, expect, test } from 'vitest';
import type { AuditEvent } from '../src/audit-log.ts';
import { findInstalledGuards, type InstalledGuard } from '../src/cli/installed-guards.ts';
import { renderStatusLine, sessionFacts } from '../src/cli/status-line.ts';
import type { GuardDefinition } from '../src/guard.ts';
import { runCli } from '../src/index.ts';
import { makeGuard } from './cli-harness.ts';

const exec = (bundle: string, ...more: string[]) => ({
  type: 'command',
  command: 'node',
  args: [bundle, ...more],
  timeout: 5,
});
const preToolUse = (...handlers: object[]) => ({
  hooks: { PreToolUse: [{ matcher: 'Bash', hooks: handlers }] },
});

describe('findInstalledGuards: what the settings wire', () => {
  test.for([
    [
      'an enforcing handler',
      preToolUse(exec('/p/.claude/hooks/git-write-gate.cjs')),
      [{ guard: 'git-write-gate', monitoring: false, strict: false }],
    ],
    [
      'a monitored one',
      preToolUse(exec('/h/exit-status-guard.cjs', '--monitor')),
      [{ guard: 'exit-status-guard', monitoring: true }],
    ],
    [
      'a strict one',
      preToolUse({ ...exec('/h/git-write-gate.cjs', '--strict'), onFailure: 'block' }),
      [{ guard: 'git-write-gate', strict: true }],
    ],
    [
      'half strict is not strict',
      preToolUse({ ...exec('/h/git-write-gate.cjs'), onFailure: 'block' }),
      [{ strict: false }],
    ],
    [
      'the strict plugin, judged by its marketplace\u2019s kit-judge',
      { enabledPlugins: { 'git-write-gate-strict@kit': true, 'roseline-gate@kit': false } },
      [{ guard: 'git-write-gate', strict: true, via: 'plugin', judge: true }],
    ],
    [
      'a monitor plugin: monitoring, judged by kit-judge',
      { enabledPlugins: { 'exit-status-guard-monitor@kit': true } },
      [{ guard: 'exit-status-guard', monitoring: true, strict: false, via: 'plugin', judge: true }],
    ],
    [
      'the plain plugin: enforcing',
      { enabledPlugins: { 'exit-status-guard@kit': true } },
      [{ guard: 'exit-status-guard', monitoring: false, strict: false, via: 'plugin' }],
    ],
    [
      'the plain plugin before its monitor: enforcing (Claude Code runs the first of one name)',
      { enabledPlugins: { 'exit-status-guard@kit': true, 'exit-status-guard-monitor@kit': true } },
      [{ guard: 'exit-status-guard', monitoring: false, strict: false, via: 'plugin' }],
    ],
    [
      'the monitor plugin before the plain one: monitoring',
      { enabledPlugins: { 'exit-status-guard-monitor@kit': true, 'exit-status-guard@kit': true } },
      [{ guard: 'exit-status-guard', monitoring: true, strict: false, via: 'plugin' }],
    ],
    [
      'the plain plugin before the strict one: not strict',
      { enabledPlugins: { 'git-write-gate@kit': true, 'git-write-gate-strict@kit': true } },
      [{ guard: 'git-write-gate', monitoring: false, strict: false, via: 'plugin' }],
    ],
    [
      'an MCP judge handler',
      preToolUse({ type: 'mcp_tool', server: 'kit-judge', tool: 'judge', input: { guard: 'roseline-gate' } }),
      [{ guard: 'roseline-gate', judge: true, monitoring: false }],
    ],
    [
      'an MCP judge handler in monitor mode',
      preToolUse({
        type: 'mcp_tool',
        server: 'kit-judge',
        tool: 'judge',
        input: { guard: 'roseline-gate', monitor: true },
      }),
      [{ guard: 'roseline-gate', judge: true, monitoring: true }],
    ],
    [
      'another tool\u2019s handler: nothing',
      preToolUse(exec('/h/lint.cjs'), { type: 'command', command: 'other-guard hook' }),
      [],
    ],
  ] as const)('%s', async ([, settings, expected]) => {
    const project = tempTree({ '.claude/settings.json': JSON.stringify(settings) });
    const found = await findInstalledGuards(tempTree(), project);
    expect(found).toMatchObject([...expected]);
  });
});

const session = { sessionId: 's1', cwd: '/repos/app', projectDir: '/repos/app' };
const event = (guard: string, kind: AuditEvent['event']): AuditEvent => ({
  time: 't',
  guard,
  event: kind,
  session: 's1',
});
const wired = (fields: Partial<InstalledGuard> = {}): InstalledGuard => ({
  guard: 'git-write-gate',
  monitoring: false,
  strict: false,
  via: 'settings',
  judge: false,
  judgeRecords: null,
  ...fields,
});
const self = { name: 'git-write-gate', idleHere: (cwd: string) => (cwd === '/plain' ? 'no profile' : null) };

describe('renderStatusLine: the words', () => {
  test.for([
    [
      'enforcing, two denies',
      [wired()],
      [event('git-write-gate', 'deny'), event('git-write-gate', 'refuse')],
      session,
      'kit: git-write-gate enforcing, 2 denied',
    ],
    [
      'monitoring, a would-deny',
      [wired({ monitoring: true })],
      [event('git-write-gate', 'would-deny')],
      session,
      'kit: git-write-gate monitoring, 1 would-deny',
    ],
    [
      'strict plugin and an escape',
      [wired({ strict: true, via: 'plugin' })],
      [event('git-write-gate', 'escape')],
      session,
      'kit: git-write-gate enforcing, strict, plugin, 1 overridden',
    ],
    [
      'idle here in words',
      [wired()],
      [],
      { ...session, cwd: '/plain' },
      'kit: git-write-gate enforcing, idle here',
    ],
    [
      'not installed, another guard with a judge',
      [wired({ guard: 'roseline-gate', judge: true })],
      [event('roseline-gate', 'deny')],
      session,
      'kit: git-write-gate not installed · roseline-gate enforcing, judge unknown, 1 denied',
    ],
  ] as const)('%s', ([, installed, events, facts, line]) => {
    expect(renderStatusLine(self, [...installed], [...events], facts, {})).toBe(line);
  });
});

describe('a plugin\u2019s judge, from the session record kit-judge keeps in its data folder', () => {
  const guard = makeGuard();
  const project = tempTree({
    '.claude/settings.json': JSON.stringify({ enabledPlugins: { 'example-guard@kit': true } }),
  });
  const record = (pid: number, problems: string[] = []) => JSON.stringify({ pid, restarts: 0, problems });
  const sessions = '.claude/plugins/data/kit-judge-kit/sessions';
  const home = tempTree({
    [`${sessions}/running.json`]: record(process.pid),
    [`${sessions}/gone.json`]: record(2 ** 22 + 1), // above Linux's pid_max default: no such process
    [`${sessions}/partial.json`]: record(process.pid, ['roseline-gate: Cannot find module']),
  });
  test.for([
    ['running', 'judge connected'],
    ['gone', 'judge stopped'],
    ['partial', 'judge connected, 1 not loaded'],
    ['never', 'judge not connected'],
  ] as const)('session %s: %s', async ([sessionId, words]) => {
    const io = recordingIO({
      cwd: project,
      home,
      env: { PATH: process.env.PATH, XDG_STATE_HOME: tempDir('status-state') },
      stdin: async () => JSON.stringify({ session_id: sessionId, cwd: project }),
    });
    expect(await runCli(guard, ['statusline'], io)).toBe(0);
    expect(io.out()).toBe(`kit: example-guard enforcing, plugin, ${words}\n`);
  });
});

test.for([
  ['example-guard@kit', 'kit: example-guard enforcing, plugin, judge connected\n'],
  ['example-guard-monitor@kit', 'kit: example-guard monitoring, plugin, judge connected\n'],
] as const)('the command, with the plugin %s enabled: %j', async ([plugin, line]) => {
  const project = tempTree({
    '.claude/settings.json': JSON.stringify({ enabledPlugins: { [plugin]: true } }),
  });
  const home = tempTree({
    '.claude/plugins/data/kit-judge-kit/sessions/s1.json': JSON.stringify({
      pid: process.pid,
      restarts: 0,
      problems: [],
    }),
  });
  const io = recordingIO({
    cwd: project,
    home,
    env: { PATH: process.env.PATH, XDG_STATE_HOME: tempDir('status-state') },
    stdin: async () => JSON.stringify({ session_id: 's1', cwd: project }),
  });
  expect(await runCli(makeGuard(), ['statusline'], io)).toBe(0);
  expect(io.out()).toBe(line);
});

test.for([
  [
    'the host JSON',
    '{"session_id":"s9","cwd":"/a","workspace":{"current_dir":"/b","project_dir":"/c"}}',
    { sessionId: 's9', cwd: '/b', projectDir: '/c' },
  ],
  ['no workspace', '{"session_id":"s9","cwd":"/a"}', { sessionId: 's9', cwd: '/a', projectDir: '/a' }],
  ['not JSON', 'x', { sessionId: null, cwd: '/here', projectDir: '/here' }],
] as const)('sessionFacts: %s', ([, stdin, facts]) => expect(sessionFacts(stdin, '/here')).toEqual(facts));

async function statusLine(
  guard: GuardDefinition,
  argv: string[],
  project: string,
  state: string,
  sessionId = 's1',
) {
  const io = recordingIO({
    cwd: project,
    home: tempTree(),
    env: { PATH: process.env.PATH, XDG_STATE_HOME: state },
    stdin: async () =>
      JSON.stringify({ session_id: sessionId, workspace: { current_dir: project, project_dir: project } }),
  });
  const code = await runCli(guard, ['statusline', ...argv], io);
  expect(io.err()).toBe('');
  expect(code).toBe(0);
  return io.out();
}

describe('the command: the session\u2019s own denies only, and --then', () => {
  const guard = makeGuard();
  const project = tempTree({
    '.claude/settings.json': JSON.stringify(
      preToolUse(exec('${CLAUDE_PROJECT_DIR}/.claude/hooks/example-guard.mjs', '--monitor')),
    ),
  });
  const state = tempDir('status-state');
  mkdirSync(join(state, 'kit-hooks'));
  writeFileSync(
    join(state, 'kit-hooks', 'audit.jsonl'),
    [event('example-guard', 'would-deny'), { ...event('example-guard', 'would-deny'), session: 'other' }]
      .map((e) => JSON.stringify(e))
      .join('\n'),
  );
  test('this session: one would-deny; another session: none', async () => {
    expect(await statusLine(guard, [], project, state)).toBe('kit: example-guard monitoring, 1 would-deny\n');
    expect(await statusLine(guard, [], project, state, 's2')).toBe('kit: example-guard monitoring\n');
  });
  test('--then: their first line, then the kit, then their other lines; their command reads the same JSON', async () => {
    const out = await statusLine(
      guard,
      ['--then', 'read -r line; echo "mine:${#line}"; echo second'],
      project,
      state,
    );
    expect(out).toMatch(/^mine:\d+ {2}\| {2}kit: example-guard monitoring, 1 would-deny\nsecond\n$/);
    expect(await statusLine(guard, ['--then', 'true'], project, state)).toBe(
      'kit: example-guard monitoring, 1 would-deny\n',
    );
  });
});
