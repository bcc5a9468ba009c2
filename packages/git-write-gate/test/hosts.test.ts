import { bashPayload, type HookInput, hostAdapters } from '@kit/gate-approval';
import { hookEnv, runHookCommand } from '@kit/test-kit';
import { describe, expect, test } from 'vitest';
import { guardDefinition } from '../src/guard.ts';
import { makeFixtures } from './fixtures.ts';

const fixtures = makeFixtures();
const hosts = ['codex', 'gemini', 'copilot'] as const;
type Host = (typeof hosts)[number];

/** The built bundle as each host's installed command starts it: `node hook.cjs --host <host>`, that host's payload on stdin. */
function runAs(host: Host, input: HookInput, env: Record<string, string> = {}) {
  return runHookCommand(
    { command: process.execPath, args: [guardDefinition.bundle, '--host', host] },
    hostAdapters[host].payloadOf(input),
    { env: hookEnv(env) },
  );
}

describe.for(hosts)('the bundle with --host %s', (host) => {
  test('a commit in a managed repository: denied in the host’s dialect (positive control)', () => {
    const run = runAs(host, bashPayload('git commit -m x', { cwd: fixtures.managed, sessionId: 's' }));
    expect([run.exitCode, run.stderr]).toEqual([0, '']);
    expect(hostAdapters[host].isDenyOutput(run.stdout), run.stdout).toBe(true);
    expect(run.stdout).toContain('git-write-gate: `git commit -m x` is a git write (commit)');
    expect(run.stdout).toContain('GIT_GATE=off git commit -m x');
  });
  test.for([
    ['a commit in a plain repository', 'git commit -m x', 'plain'],
    ['a read in a managed repository', 'git status', 'managed'],
    ['the escape in a managed repository', 'GIT_GATE=off git commit -m x', 'managed'],
  ] as const)('%s: nothing, exit 0', ([, command, where]) => {
    expect(runAs(host, bashPayload(command, { cwd: fixtures[where], sessionId: 's' }))).toEqual({
      exitCode: 0,
      stdout: '',
      stderr: '',
    });
  });
  test('strict mode: a command it cannot judge is refused, written as the host’s deny (exit 0)', () => {
    const payload = bashPayload('git commit -m "unterminated', { cwd: fixtures.managed, sessionId: 's' });
    const run = runAs(host, payload, { TAGOUT_HOOKS_STRICT: '1' });
    expect([run.exitCode, run.stderr]).toEqual([0, '']);
    expect(hostAdapters[host].isDenyOutput(run.stdout), run.stdout).toBe(true);
    expect(run.stdout).toContain('(strict mode)');
    expect(runAs(host, payload)).toEqual({ exitCode: 0, stdout: '', stderr: '' });
  });
});

// Codex and Copilot CLI mark a sub-agent's call; Gemini CLI does not, so there every call reads as the main thread's.
test.for(['codex', 'copilot'] as const)("%s: a sub-agent's commit is denied without the escape", (host) => {
  const run = runAs(
    host,
    bashPayload('git commit -m x', { cwd: fixtures.managed, sessionId: 's', agentId: 'a1' }),
  );
  expect(hostAdapters[host].isDenyOutput(run.stdout), run.stdout).toBe(true);
  expect(run.stdout).toContain('withheld from sub-agents');
  expect(run.stdout).not.toContain('GIT_GATE=off git commit -m x');
});
