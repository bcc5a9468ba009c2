// The audit trail, through the built bundle as the host runs it: a deny, a strict refusal, an escape
// used (on a deny or a strict refusal) and a monitored would-deny each leave one line in
// $XDG_STATE_HOME/kit-hooks/audit.jsonl, the token in the command redacted; a read, an escape on a
// call that was silent anyway, and KIT_HOOKS_AUDIT=off leave none.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bashPayload, runCli } from '@kit/gate-approval';
import { hookEnv, hookNode, recordingIO, runHookCommand, tempDir } from '@kit/test-kit';
import { beforeAll, describe, expect, test } from 'vitest';
import { guardDefinition } from '../src/guard.ts';
import { makeFixtures } from './fixtures.ts';

const builtHook = guardDefinition.bundle;
const fixtures = makeFixtures();
beforeAll(() => {
  if (!existsSync(builtHook))
    throw new Error(`build first: ${builtHook} is missing (pnpm --filter @kit/git-write-gate build)`);
});

const token = 'ghp_aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5';
const strict = { TAGOUT_HOOKS_STRICT: '1' };
type Row = [name: string, command: string, args: string[], env: Record<string, string>, events: object[]];
const rows: Row[] = [
  ['a deny', `git push https://x:${token}@example.com/r main`, [], {}, [{ event: 'deny', rule: 'push' }]],
  ['an escape used', 'GIT_GATE=off git push origin main', [], {}, [{ event: 'escape', rule: 'push' }]],
  ['a monitored deny', 'git commit -m wip', ['--monitor'], {}, [{ event: 'would-deny', rule: 'commit' }]],
  ['a read: nothing', 'git status', [], {}, []],
  ['an escaped read: nothing', 'GIT_GATE=off git status', [], {}, []],
  ['a strict refusal', 'git commit -m "unclosed', [], strict, [{ event: 'refuse', rule: 'syntax' }]],
  [
    'a strict refusal escaped',
    `GIT_GATE=off git push https://x:${token}@example.com/r "unclosed`,
    [],
    strict,
    [{ event: 'escape', rule: 'syntax' }],
  ],
  ['the same escape by default: nothing', 'GIT_GATE=off git commit -m "unclosed', [], {}, []],
  ['the trail off: nothing', 'git push origin main', [], { KIT_HOOKS_AUDIT: 'off' }, []],
];

describe('the bundle writes the audit trail', () => {
  test.for(rows)('%s', ([, command, args, env, events]) => {
    const state = tempDir('audit-state');
    const payload = bashPayload(command, { cwd: fixtures.managed, sessionId: 'sess-a' });
    runHookCommand({ command: hookNode(), args: [builtHook, ...args] }, payload, {
      env: hookEnv({ XDG_STATE_HOME: state, ...env }),
    });
    const file = join(state, 'kit-hooks', 'audit.jsonl');
    const lines = existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n') : [];
    expect(lines.map((line) => JSON.parse(line))).toMatchObject(
      events.map((event) => ({
        guard: 'git-write-gate',
        tool: 'Bash',
        cwd: fixtures.managed,
        session: 'sess-a',
        ...event,
      })),
    );
    for (const line of lines) expect(line).not.toContain(token);
    if (command.includes(token)) expect(lines[0]).toContain('https://x:[redacted]@example.com');
  });
});

test('report: a strict refusal among the denied, its escape among the overridden, the command redacted', async () => {
  const state = tempDir('audit-state');
  for (const command of ['git commit -m "unclosed', `GIT_GATE=off git push https://x:${token}@h/r "unclosed`])
    runHookCommand(
      { command: hookNode(), args: [builtHook] },
      bashPayload(command, { cwd: fixtures.managed, sessionId: 'sess-r' }),
      { env: hookEnv({ XDG_STATE_HOME: state, ...strict }) },
    );
  const io = recordingIO({ cwd: fixtures.managed, home: tempDir('home'), env: { XDG_STATE_HOME: state } });
  expect(await runCli(guardDefinition, ['report', '--json'], io)).toBe(0);
  const report = JSON.parse(io.out());
  expect(report.denied).toMatchObject([{ count: 1, event: 'refuse', rule: 'syntax' }]);
  expect(report.overridden).toMatchObject([{ count: 1, event: 'escape', rule: 'syntax' }]);
  expect(report.recent).toMatchObject([
    { event: 'escape', command: 'GIT_GATE=off git push https://x:[redacted]@h/r "unclosed' },
  ]);
});
