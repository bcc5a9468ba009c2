// Monitor mode (`--monitor` in the bundle's arguments) and the audit file its would-denies go to.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '@kit/test-kit';
import { describe, expect, test } from 'vitest';
import { appendAudit, auditFile, guardOfReason } from '../src/audit-log.ts';
import { protocolFromArgs } from '../src/hosts/host-argument.ts';
import { monitorProtocol, recordWouldDeny, type WouldDeny } from '../src/monitor.ts';
import { cannotJudge, deny, none, refuse } from '../src/verdict.ts';

const verdicts = [
  ['deny', deny('demo-guard', 'demo-guard: no.', 'pipe')],
  ['refuse', refuse('demo-guard', 'demo-guard: cannot judge (strict mode).', 'strict')],
  ['none', none()],
  ['cannotJudge', cannotJudge('parse-error')],
] as const;

describe.each([[[]], [['--host', 'codex']], [['--host', 'gemini']], [['--host', 'copilot']]])(
  'host arguments %j',
  (hostArgs) => {
    test.each(verdicts)(
      '%s: the same verdict and fields; a deny or refusal silenced and recorded',
      (kind, verdict) => {
        const seen: WouldDeny[] = [];
        const enforced = protocolFromArgs(hostArgs).encode(verdict);
        const monitored = monitorProtocol(protocolFromArgs(hostArgs), (event) => seen.push(event)).encode(
          verdict,
        );
        expect(monitored.verdict).toBe(enforced.verdict);
        if (kind === 'deny' || kind === 'refuse') {
          expect(enforced.stdout + enforced.stderr).not.toBe('');
          expect(monitored).toEqual({
            ...enforced,
            stdout: '',
            stderr: '',
            exitCode: 0,
            fields: { ...enforced.fields, monitored: true },
          });
          expect(seen).toEqual([{ verdict: kind, output: enforced }]);
        } else {
          expect(monitored).toEqual(enforced);
          expect(seen).toEqual([]);
        }
      },
    );
  },
);

test('--monitor anywhere in the bundle arguments turns it on; without it a deny reaches the host', () => {
  const verdict = deny('demo-guard', 'demo-guard: no.', 'pipe');
  expect(protocolFromArgs(['--host', 'codex', '--monitor']).encode(verdict).stdout).toBe('');
  expect(protocolFromArgs(['--monitor', '--host', 'codex']).encode(verdict).stdout).toBe('');
  expect(protocolFromArgs(['--host', 'codex']).encode(verdict).stdout).not.toBe('');
});

test('a recorder that throws never reaches the host', () => {
  const monitored = monitorProtocol(protocolFromArgs([]), () => {
    throw new Error('disk full');
  }).encode(deny('demo-guard', 'demo-guard: no.'));
  expect([monitored.stdout, monitored.exitCode]).toEqual(['', 0]);
});

describe('the audit file', () => {
  test.each([
    [{ XDG_STATE_HOME: '/s', HOME: '/h' }, '/s/kit-hooks/audit.jsonl'],
    [{ HOME: '/h' }, '/h/.local/state/kit-hooks/audit.jsonl'],
    [{ XDG_STATE_HOME: 'relative', HOME: '/h' }, '/h/.local/state/kit-hooks/audit.jsonl'],
    [{ HOME: '/h', KIT_HOOKS_AUDIT: 'off' }, null],
    [{ HOME: '/h', KIT_HOOKS_AUDIT: 'No' }, null],
    [{ HOME: '/h', KIT_HOOKS_AUDIT: 'on' }, '/h/.local/state/kit-hooks/audit.jsonl'],
    [{}, null],
  ])('%j: %s', (env, file) => {
    expect(auditFile(env)).toBe(file);
  });

  test('a would-deny is one line, mode 0600, with the guard and rule and no command text', () => {
    const state = tempDir('audit-state');
    const output = protocolFromArgs([]).encode(
      deny('git-write-gate', 'git-write-gate: `git push --token=s3cret` …', 'push'),
    );
    recordWouldDeny({ verdict: 'deny', output }, { XDG_STATE_HOME: state });
    const file = join(state, 'kit-hooks', 'audit.jsonl');
    const [line, ...more] = readFileSync(file, 'utf8').trim().split('\n');
    expect(more).toEqual([]);
    expect(JSON.parse(line ?? '')).toMatchObject({
      guard: 'git-write-gate',
      event: 'would-deny',
      rule: 'push',
    });
    expect(line).not.toContain('s3cret');
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  test('bounded: past the limit it rotates to .1, so it holds at most about twice the limit', () => {
    const file = join(tempDir('audit-rotate'), 'kit-hooks', 'audit.jsonl');
    const event = { time: '2026-01-01T00:00:00.000Z', guard: 'g-guard', event: 'would-deny' } as const;
    for (let i = 0; i < 200; i += 1) appendAudit(file, event, 1000);
    const sizes = [statSync(file).size, statSync(`${file}.1`).size];
    expect(sizes[0]).toBeLessThanOrEqual(1000 + 100);
    expect(sizes[1]).toBeLessThanOrEqual(1000 + 100);
    writeFileSync(file, ''); // and a file under the limit is appended to, not rotated
    appendAudit(file, event, 1000);
    expect(readFileSync(file, 'utf8').split('\n')).toHaveLength(2);
  });

  test.each([
    ['{"hookSpecificOutput":{"permissionDecisionReason":"git-write-gate: `git push`"}}', 'git-write-gate'],
    ['exit-status-guard: `make test` …', 'exit-status-guard'],
    ['no opener here', 'unknown'],
  ])('the guard of %s is %s', (text, guard) => {
    expect(guardOfReason(text)).toBe(guard);
  });
});
