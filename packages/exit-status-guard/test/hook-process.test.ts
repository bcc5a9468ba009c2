import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hookEnv, runHookFile, runWithParserProbe, tempDir } from '@kit/test-kit';
import { describe, expect, test } from 'vitest';
import { guardDefinition } from '../src/guard.ts';
import { bashCall } from './fake-context.ts';

const emptyProject = tempDir('esg-hook');
const env = { CLAUDE_PROJECT_DIR: emptyProject };

/** The built bundle (where the definition says it is) as the host runs it: `node hook.cjs`, the payload on stdin. */
const runBuiltHook = (payload: unknown, extra: Record<string, string> = {}) =>
  runHookFile(guardDefinition.bundle, payload, { env: hookEnv(extra) });

describe('the hook bundle as a process', () => {
  test('denies the positive control with the PreToolUse JSON on stdout, exit 0', () => {
    const run = runBuiltHook(bashCall('make test | tail -5', { cwd: emptyProject }), env);
    expect(run.exitCode).toBe(0);
    const output = JSON.parse(run.stdout);
    expect(output.hookSpecificOutput).toMatchObject({
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
    });
    expect(output.hookSpecificOutput.permissionDecisionReason).toMatch(
      /^exit-status-guard: `make test`: its exit status is lost in a pipe/,
    );
  });

  test.for([
    ['a plain command', bashCall('ls -la', { cwd: emptyProject })],
    ['a kept status', bashCall('make test > out.log 2>&1; echo "EXIT=$?"', { cwd: emptyProject })],
    ['another tool', { ...bashCall('make test | tail'), tool_name: 'BashOutput' }],
    ['no command', { ...bashCall('x'), tool_input: {} }],
    ['a numeric command', { ...bashCall('x'), tool_input: { command: 42 } }],
    ['unparseable', bashCall('make check | | tail', { cwd: emptyProject })],
  ] as const)('%s: nothing on stdout, exit 0', ([, payload]) => {
    const run = runBuiltHook(payload, env);
    expect([run.exitCode, run.stdout]).toEqual([0, '']);
  });

  const stdins: Record<string, string> = {
    empty: '',
    blank: '  \n',
    null: 'null',
    array: '[]',
    number: '7',
    cut: '{"tool_name":"Bash","tool_input":{"command":"make test | tail',
    garbage: '\u0000\u0001 not json at all',
    huge: `{"tool_name":"Bash","tool_input":{"command":"${'a'.repeat(5 * 1024 * 1024)}"}}`,
  };
  test.for(Object.entries(stdins))('stdin %s: no opinion, exit 0', ([, stdin]) => {
    const run = runBuiltHook(stdin, env);
    expect([run.exitCode, run.stdout]).toEqual([0, '']);
  });

  test('the override silences the installed hook too', () => {
    const run = runBuiltHook(
      bashCall('EXIT_STATUS_GUARD_OVERRIDE="only the log" make test | tail -5', { cwd: emptyProject }),
      env,
    );
    expect([run.exitCode, run.stdout]).toEqual([0, '']);
  });

  test('EXIT_STATUS_GUARD_REGISTRY pointing at an empty registry silences the control', () => {
    const file = join(emptyProject, 'empty.json');
    writeFileSync(file, '{}');
    const run = runBuiltHook(bashCall('make test | tail -5', { cwd: emptyProject }), {
      ...env,
      EXIT_STATUS_GUARD_REGISTRY: file,
    });
    expect([run.exitCode, run.stdout]).toEqual([0, '']);
  });
});

// Issue 23: a relative TMPDIR made the embedded parser's createRequire throw, so the control passed unjudged.
describe('a relative or odd TMPDIR never switches the judge off', () => {
  test.for(['tmp', '.', 'tmp/', 'no-such-folder', ''])('TMPDIR=%j: the control is denied', (temp) => {
    const run = runHookFile(guardDefinition.bundle, bashCall('make test | tail -5', { cwd: emptyProject }), {
      env: hookEnv({ ...env, TMPDIR: temp }),
      cwd: emptyProject,
    });
    expect(run.exitCode).toBe(0);
    expect(JSON.parse(run.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
  });
});

describe('the common path does not load the parser', () => {
  const probe = (command: string) => {
    const { run, load } = runWithParserProbe(
      guardDefinition.bundle,
      bashCall(command, { cwd: emptyProject }),
      {
        env: hookEnv(env),
      },
    );
    expect(run.exitCode).toBe(0);
    return load;
  };
  // Nor the builtins only the parse path needs: a bundle that imported them at its top would load
  // them on every call (~2 ms).
  test.for(['make test', 'git status', 'npm test -- --coverage', 'echo "hello world" > notes.txt'])(
    '%s: decided without mvdan-sh and its builtins',
    (command) => {
      expect(probe(command)).toEqual({ parser: 'not-loaded', builtins: [] });
    },
  );
  test.for(['make test | tail -5', 'echo "${PIPESTATUS[0]}"', 'make test; git push'])(
    'control: %s loads them',
    (command) => {
      // node:os no more: the code cache's folder takes the temp folder from the env (tempFolderOf).
      expect(probe(command)).toEqual({ parser: 'loaded', builtins: ['zlib', 'vm'] });
    },
  );
});
