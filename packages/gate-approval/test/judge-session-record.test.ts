// The session record of the judge `install` declares (`claude mcp add`, a guard's dist/mcp.cjs):
// kept in the kit's state folder as the plugin's judge keeps its own, pruned, and read by
// `statusline`, which then says connected, stopped or not connected for that route too.
import { existsSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { recordingIO, startJudge, tempDir, tempTree } from '@kit/test-kit';
import { describe, expect, test } from 'vitest';
import { findInstalledGuards } from '../src/cli/installed-guards.ts';
import { judgeHandler } from '../src/cli/transport.ts';
import { runCli } from '../src/index.ts';
import {
  judgeServerDataFolder,
  pruneSessionRecords,
  readSessionStatus,
  writeSessionStatus,
} from '../src/mcp/session-status.ts';
import { makeGuard } from './cli-harness.ts';

const gateApprovalIndex = fileURLToPath(new URL('../dist/index.cjs', import.meta.url));
// A guard's dist/mcp.cjs, as its src/mcp.ts is: the shared entry with the modules its args name.
const serverFile = join(
  tempTree({
    'mcp.cjs': `require(${JSON.stringify(gateApprovalIndex)}).runJudgeProcess(process.argv.slice(2));\n`,
  }),
  'mcp.cjs',
);

// The handler install writes on the MCP route.
const project = tempTree({
  '.claude/settings.json': JSON.stringify({
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [judgeHandler('example-guard', false)] }] },
  }),
});

describe('the folder: the kit state folder, beside the audit trail', () => {
  test.for([
    ['XDG_STATE_HOME', { XDG_STATE_HOME: '/st', HOME: '/h' }, undefined, '/st/kit-hooks/kit-judge'],
    ['HOME', { HOME: '/h' }, undefined, '/h/.local/state/kit-hooks/kit-judge'],
    [
      'a relative XDG_STATE_HOME is ignored',
      { XDG_STATE_HOME: 'st', HOME: '/h' },
      undefined,
      '/h/.local/state/kit-hooks/kit-judge',
    ],
    ['the home given for an unset HOME', {}, '/io', '/io/.local/state/kit-hooks/kit-judge'],
    ['no home at all', {}, undefined, undefined],
  ] as const)('%s', ([, env, home, folder]) => {
    expect(judgeServerDataFolder(env, home)).toBe(folder);
  });
  test('the status line finds an mcp_tool handler’s records there', async () => {
    const state = tempDir('judge-state');
    const [found] = await findInstalledGuards(tempTree(), project, { XDG_STATE_HOME: state });
    expect(found).toMatchObject({
      guard: 'example-guard',
      judge: true,
      judgeRecords: join(state, 'kit-hooks', 'kit-judge'),
    });
  });
});

async function statusLine(state: string, sessionId: string): Promise<string> {
  const io = recordingIO({
    cwd: project,
    home: tempTree(),
    env: { PATH: process.env.PATH, XDG_STATE_HOME: state },
    stdin: async () => JSON.stringify({ session_id: sessionId, cwd: project }),
  });
  expect(await runCli(makeGuard(), ['statusline'], io)).toBe(0);
  return io.out();
}

describe('the npx judge process records its session, and statusline reads it', { timeout: 30_000 }, () => {
  test('connected while it runs, stopped once it has ended, not connected for another session', async () => {
    const state = tempDir('judge-state');
    const judge = await startJudge(serverFile, [], {
      env: { PATH: process.env.PATH, XDG_STATE_HOME: state, CLAUDE_CODE_SESSION_ID: 'sess-npx' },
    });
    await judge.request('ping'); // answered after notifications/initialized is handled
    const file = join(state, 'kit-hooks', 'kit-judge', 'sessions', 'sess-npx.json');
    expect(readSessionStatus(file)).toEqual({ pid: judge.pid, restarts: 0, problems: [], loaded: [] });
    expect(await statusLine(state, 'sess-npx')).toBe('kit: example-guard enforcing, judge connected\n');
    expect(await statusLine(state, 'sess-other')).toBe('kit: example-guard enforcing, judge not connected\n');
    expect(await judge.close()).toBe(0);
    expect(await statusLine(state, 'sess-npx')).toBe('kit: example-guard enforcing, judge stopped\n');
  });
  test('with no session id in its environment it records nothing', async () => {
    const state = tempDir('judge-state');
    const judge = await startJudge(serverFile, [], {
      env: { PATH: process.env.PATH, XDG_STATE_HOME: state },
    });
    await judge.request('ping');
    expect(await judge.close()).toBe(0);
    expect(existsSync(join(state, 'kit-hooks', 'kit-judge'))).toBe(false);
  });
});

describe('pruneSessionRecords: a folder keeps few records', () => {
  const day = 86_400_000;
  const now = Date.parse('2026-06-01T00:00:00Z');
  const runningPid = 4242;
  const runs = (pid: number) => pid === runningPid;
  test.for([
    ['an ended judge, two days old: removed', 1, 2 * day, false],
    ['an ended judge, an hour old: kept', 2, day / 24, true],
    ['a running judge, two days old: kept', runningPid, 2 * day, true],
    ['a record that cannot be read, two days old: removed', null, 2 * day, false],
  ] as const)('%s', ([, pid, age, kept]) => {
    const folder = tempDir('judge-sessions');
    const file = join(folder, 'other.json');
    if (pid === null) writeFileSync(file, 'not json');
    else writeSessionStatus(file, { pid, restarts: 0, problems: [], loaded: [] });
    utimesSync(file, (now - age) / 1000, (now - age) / 1000);
    pruneSessionRecords(folder, join(folder, 'own.json'), now, runs);
    expect(existsSync(file)).toBe(kept);
  });
  test('past the most a folder keeps, the oldest go; the session’s own record stays', () => {
    const folder = tempDir('judge-sessions');
    for (const [index, name] of ['own', 'a', 'b', 'c', 'd'].entries()) {
      const file = join(folder, `${name}.json`);
      writeSessionStatus(file, { pid: runningPid, restarts: 0, problems: [], loaded: [] });
      const time = (now - (name === 'own' ? 9 : index) * 1000) / 1000;
      utimesSync(file, time, time);
    }
    pruneSessionRecords(folder, join(folder, 'own.json'), now, runs, { endedAfterMs: day, most: 3 });
    expect(readdirSync(folder).sort()).toEqual(['a.json', 'b.json', 'own.json']);
  });
});
