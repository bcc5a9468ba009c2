// `install --strict` writes `node <bundle> --strict`: the bundle judges as TAGOUT_HOOKS_STRICT=1 does,
// with no variable in the session. Rows both ways: the flag refuses what strict mode refuses, and
// without it (or with the variable alone) the same call is as the default or the variable decides.
import { existsSync } from 'node:fs';
import { bashPayload } from '@kit/gate-approval';
import { hookEnv, hookNode, runHookCommand } from '@kit/test-kit';
import { beforeAll, describe, expect, test } from 'vitest';
import { guardDefinition } from '../src/guard.ts';

const builtHook = guardDefinition.bundle;
beforeAll(() => {
  if (!existsSync(builtHook))
    throw new Error(`build first: ${builtHook} is missing (pnpm --filter @kit/git-write-gate build)`);
});

const unreadable = '{"tool_input":{"cmd":"git push"}}'; // no command string; raw text git-looking
const unreadableTwin = '{"tool_input":{"cmd":"ls"}}';
const missingCwd = { ...bashPayload('git push', { cwd: '/' }), cwd: undefined };

type Row = [name: string, args: string[], env: Record<string, string>, stdin: unknown, exitCode: 0 | 2];
const rows: Row[] = [
  ['--strict, an unreadable git-looking payload: refused', ['--strict'], {}, unreadable, 2],
  ['no flag, the same payload: no opinion', [], {}, unreadable, 0],
  ['the variable alone (positive control): refused', [], { TAGOUT_HOOKS_STRICT: '1' }, unreadable, 2],
  ['--strict, a payload that is not git-looking: no opinion', ['--strict'], {}, unreadableTwin, 0],
  ['--strict, a git call with no cwd: refused', ['--strict'], {}, missingCwd, 2],
  ['no flag, the same call: no opinion', [], {}, missingCwd, 0],
  ['--strict and --host claude: refused', ['--host', 'claude', '--strict'], {}, unreadable, 2],
  [
    '--strict --monitor: judged, never told',
    ['--monitor', '--strict'],
    { KIT_HOOKS_AUDIT: 'off' },
    unreadable,
    0,
  ],
  ['--strict with GIT_GATE=off: silent', ['--strict'], { GIT_GATE: 'off' }, unreadable, 0],
];

describe('the bundle reads --strict from its own arguments', () => {
  test.for(rows)('%s', ([, args, env, stdin, exitCode]) => {
    const result = runHookCommand({ command: hookNode(), args: [builtHook, ...args] }, stdin, {
      env: hookEnv(env),
    });
    expect(result.exitCode).toBe(exitCode);
    if (exitCode === 2) expect(result.stderr).toMatch(/^git-write-gate: /);
    else expect(result.stderr).toBe('');
  });
});
