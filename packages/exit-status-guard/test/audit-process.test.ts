// The audit trail through the built bundle: a deny is a `deny` line with its rule; the one-call
// override is an `override` line naming the rule it kept from denying, and the call passes; a plain
// command, and an override on a call no rule denies (nothing was overridden), leave no line.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hookEnv, runHookFile, tempDir } from '@kit/test-kit';
import { expect, test } from 'vitest';
import { guardDefinition } from '../src/guard.ts';
import { bashCall } from './fake-context.ts';

const project = tempDir('esg-audit');

test.for([
  ['a deny', 'make test | tail -5', 'deny', 'piped-gate'],
  [
    'the override used',
    'EXIT_STATUS_GUARD_OVERRIDE="a log read" make test | tail -5',
    'override',
    'piped-gate',
  ],
  ['the legacy override used', 'PIPE_GUARD_OVERRIDE=1 echo "${PIPESTATUS[0]}"', 'override', 'pipestatus'],
  [
    'an override on a silent call: nothing',
    'set -o pipefail; EXIT_STATUS_GUARD_OVERRIDE=why make test | tail -5',
    null,
    null,
  ],
  ['a plain command: nothing', 'ls -la', null, null],
] as const)('%s', ([, command, event, rule]) => {
  const state = tempDir('esg-audit-state');
  const run = runHookFile(guardDefinition.bundle, bashCall(command, { cwd: project }), {
    env: hookEnv({ CLAUDE_PROJECT_DIR: project, XDG_STATE_HOME: state }),
  });
  expect(run.exitCode).toBe(0);
  expect(run.stdout === '').toBe(event !== 'deny');
  const file = join(state, 'kit-hooks', 'audit.jsonl');
  const lines = existsSync(file)
    ? readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line))
    : [];
  expect(lines).toMatchObject(
    event === null ? [] : [{ guard: 'exit-status-guard', event, rule, command, cwd: project }],
  );
});
