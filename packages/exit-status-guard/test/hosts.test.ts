import { bashPayload, hostAdapters } from '@kit/gate-approval';
import { hookEnv, runHookCommand, tempDir } from '@kit/test-kit';
import { describe, expect, test } from 'vitest';
import { guardDefinition } from '../src/guard.ts';

const project = tempDir('esg-hosts');
const hosts = ['codex', 'gemini', 'copilot'] as const;

/** The built bundle as each host's installed command starts it: `node hook.cjs --host <host>`, that host's payload on stdin. */
function runAs(host: (typeof hosts)[number], command: string) {
  const payload = hostAdapters[host].payloadOf(bashPayload(command, { cwd: project, sessionId: 's1' }));
  return runHookCommand(
    { command: process.execPath, args: [guardDefinition.bundle, '--host', host] },
    payload,
    { env: hookEnv({ CLAUDE_PROJECT_DIR: project }) },
  );
}

describe.for(hosts)('the bundle with --host %s', (host) => {
  test('denies the positive control in the host’s own dialect, exit 0', () => {
    const run = runAs(host, 'make test | tail -5');
    expect(run.exitCode).toBe(0);
    expect(run.stderr).toBe('');
    expect(hostAdapters[host].isDenyOutput(run.stdout), run.stdout).toBe(true);
    expect(run.stdout).toContain('exit-status-guard: `make test`: its exit status is lost in a pipe');
  });
  test.for([
    ['a plain command', 'ls -la'],
    [
      'the rewrite the reason suggests',
      'mkdir -p tmp && make test > tmp/out.log 2>&1; echo "EXIT=$?"; tail -5 < tmp/out.log',
    ],
  ])('%s: nothing on stdout, exit 0', ([, command]) => {
    expect(runAs(host, command ?? '')).toEqual({ exitCode: 0, stdout: '', stderr: '' });
  });
  test("Claude Code's payload is not this host's: no opinion", () => {
    const claude = bashPayload('make test | tail -5', { cwd: project, sessionId: 's1' });
    const shaped = host === 'codex' ? { ...claude, hook_event_name: 'BeforeTool' } : claude;
    const run = runHookCommand(
      { command: process.execPath, args: [guardDefinition.bundle, '--host', host] },
      shaped,
      { env: hookEnv({ CLAUDE_PROJECT_DIR: project }) },
    );
    expect(run).toEqual({ exitCode: 0, stdout: '', stderr: '' });
  });
});

test('an unknown --host: no opinion whatever the payload', () => {
  const run = runHookCommand(
    { command: process.execPath, args: [guardDefinition.bundle, '--host', 'cursor'] },
    bashPayload('make test | tail -5', { cwd: project }),
    { env: hookEnv({ CLAUDE_PROJECT_DIR: project }) },
  );
  expect(run).toEqual({ exitCode: 0, stdout: '', stderr: '' });
});
