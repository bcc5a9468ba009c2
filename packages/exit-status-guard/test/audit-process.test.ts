// The audit trail through the built bundle: a deny is a `deny` line with its rule; the one-call
// override is an `override` line and the call passes; a plain command leaves no line.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hookEnv, runHookFile, tempDir } from '@kit/test-kit';
import { expect, test } from 'vitest';
import { guardDefinition } from '../src/guard.ts';
import { bashCall } from './fake-context.ts';

const project = tempDir('esg-audit');

test.for([
  ['a deny', 'make test | tail -5', 'deny'],
  ['the override used', 'EXIT_STATUS_GUARD_OVERRIDE="a log read" make test | tail -5', 'override'],
  ['a plain command: nothing', 'ls -la', null],
] as const)('%s', ([, command, event]) => {
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
    event === null ? [] : [{ guard: 'exit-status-guard', event, command, cwd: project }],
  );
  if (event !== null) expect(lines[0].rule).toEqual(expect.any(String));
});
