import { existsSync } from 'node:fs';
import { bashPayload } from '@kit/gate-approval';
import { hookEnv, runHookFile, runWithParserProbe } from '@kit/test-kit';
import { beforeAll, describe, expect, test } from 'vitest';
import { guardDefinition } from '../src/guard.ts';
import { makeFixtures } from './fixtures.ts';

const builtHook = guardDefinition.bundle;
const fixtures = makeFixtures();
beforeAll(() => {
  if (!existsSync(builtHook))
    throw new Error(`build first: ${builtHook} is missing (pnpm --filter @kit/git-write-gate build)`);
});

/** Runs the built bundle as the host does: `node dist/hook.cjs`, the payload on stdin. */
const runBuiltHook = (payload: unknown, env: Record<string, string> = {}) =>
  runHookFile(builtHook, payload, { env: hookEnv(env) });

const call = (command: string, cwd: string) => bashPayload(command, { cwd, sessionId: 's' });

describe('the hook as a process', () => {
  test('a write in a managed repository: the deny JSON on stdout, exit 0', () => {
    const result = runBuiltHook(call('git push origin main', fixtures.managed));
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe('');
    const output = JSON.parse(result.stdout);
    expect(output.hookSpecificOutput).toMatchObject({
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
    });
    expect(output.hookSpecificOutput.permissionDecisionReason).toMatch(
      /^git-write-gate: `git push origin main` is a git write \(push\)/,
    );
  });
  test.for([
    ['a read', 'git status'],
    ['not git-looking', 'ls -la'],
  ])('%s in a managed repository: nothing, exit 0', ([, command]) => {
    expect(runBuiltHook(call(command ?? '', fixtures.managed))).toEqual({
      exitCode: 0,
      stdout: '',
      stderr: '',
    });
  });
  // hook.ts gives runHook a 64 MiB cap (spec step 3), and the bundle's front reads as much.
  test('a 5 MiB description is read whole: the write is still judged and denied', () => {
    const payload = call('git push origin main', fixtures.managed);
    const large = {
      ...payload,
      tool_input: { ...payload.tool_input, description: 'x'.repeat(5 * 1024 * 1024) },
    };
    const result = runBuiltHook(large, { TAGOUT_HOOKS_STRICT: '1' });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
  });
  test('a write in a plain repository: nothing, exit 0', () => {
    expect(runBuiltHook(call('git push', fixtures.plain))).toEqual({ exitCode: 0, stdout: '', stderr: '' });
  });
  test('GIT_GATE=off in the environment: nothing', () => {
    expect(runBuiltHook(call('git push', fixtures.managed), { GIT_GATE: 'off' })).toEqual({
      exitCode: 0,
      stdout: '',
      stderr: '',
    });
  });
});

// Issue 23: a relative TMPDIR made the embedded parser's createRequire throw: the push passed
// unjudged, and strict mode refused it as "cannot be parsed".
describe('a relative or odd TMPDIR never switches the judge off', () => {
  test.for([
    ['tmp', {}],
    ['.', {}],
    ['', {}],
    ['tmp', { TAGOUT_HOOKS_STRICT: '1' }],
  ] as const)('TMPDIR=%j %o: the push is denied as a write', ([temp, extra]) => {
    const result = runHookFile(builtHook, call('git push origin main', fixtures.managed), {
      env: hookEnv({ ...extra, TMPDIR: temp }),
      cwd: fixtures.managed,
    });
    expect([result.exitCode, result.stderr]).toEqual([0, '']);
    expect(JSON.parse(result.stdout).hookSpecificOutput.permissionDecisionReason).toMatch(
      /^git-write-gate: `git push origin main` is a git write \(push\)/,
    );
  });
});

describe('the parser stays unloaded where the text cannot be a judged write', () => {
  const probe = (command: string, cwd: string): string => {
    const { run, load } = runWithParserProbe(builtHook, call(command, cwd));
    expect(run.exitCode).toBe(0);
    return load.parser;
  };
  test.for([
    ['not git-looking', 'ls -la', () => fixtures.managed],
    ['a backslash that cannot spell git', `rg 'customer\\.ex' | sed 's/a\\b/c/'`, () => fixtures.managed],
    ['git in an unmanaged repository', 'git commit -m wip', () => fixtures.plain],
    ['git outside any repository', 'git push origin main', () => fixtures.outside],
  ] as const)('%s: %s', ([, command, cwd]) => expect(probe(command, cwd())).toBe('not-loaded'));
  test.for([
    ['git in a managed repository', 'git status', () => fixtures.managed],
    ['a backslash that spells git', 'g\\it status', () => fixtures.managed],
    ['a cd that may lead into one', `cd .. && git commit -m wip`, () => fixtures.plain],
  ] as const)('control, %s: %s loads it', ([, command, cwd]) => expect(probe(command, cwd())).toBe('loaded'));
});

describe('strict mode as a process: refusals are exit 2 with the reason on stderr', () => {
  const strict = { TAGOUT_HOOKS_STRICT: '1' };
  test.for([
    ['unparseable, managed', () => call('git commit -m "open', fixtures.managed)],
    ['over-long, managed', () => call(`git log ${'x'.repeat(70_000)}`, fixtures.managed)],
    ['nested refusal, managed', () => call(`bash -c "$git_cmd"`, fixtures.managed)],
    ['missing cwd', () => ({ ...call('git push', fixtures.managed), cwd: undefined })],
    ['cwd not a directory', () => call('git status', `${fixtures.managed}/README.md`)],
    ['not JSON, git-looking', () => '{"tool_input":{"command":"git push"'],
    ['not an object, git-looking', () => '["git push"]'],
  ] as [string, () => unknown][])('%s: refused', ([, payload]) => {
    const result = runBuiltHook(payload(), strict);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^git-write-gate: cannot judge .*\(strict mode\)/);
  });
  test.for([
    ['unparseable, plain', () => call('git commit -m "open', fixtures.plain)],
    ['over-long, unmanaged', () => call(`git log ${'x'.repeat(70_000)}`, fixtures.outside)],
    ['nested refusal, plain', () => call(`bash -c "$git_cmd"`, fixtures.plain)],
    ['not JSON, not git-looking', () => '{"tool_input":{"command":"ls"'],
    ['empty stdin', () => ''],
  ] as [string, () => unknown][])('%s: its twin passes', ([, payload]) => {
    expect(runBuiltHook(payload(), strict)).toEqual({ exitCode: 0, stdout: '', stderr: '' });
  });
  test('GIT_GATE=off beats strict mode, even on an unreadable payload', () => {
    expect(runBuiltHook('{"command":"git push"', { ...strict, GIT_GATE: 'off' })).toEqual({
      exitCode: 0,
      stdout: '',
      stderr: '',
    });
  });
  test('a judged write is still a deny, exit 0', () => {
    const result = runBuiltHook(call('git push', fixtures.managed), strict);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('"permissionDecision":"deny"');
  });
});

describe('default mode as a process: every unreadable payload is no opinion', () => {
  test.for([
    '',
    ' ',
    'null',
    '[]',
    '{',
    '"git push"',
    '{"tool_name":"Bash"}',
    '{"tool_name":"Bash","tool_input":{"command":"git push"}}',
  ])('stdin %j', (stdin) => {
    expect(runBuiltHook(stdin)).toEqual({ exitCode: 0, stdout: '', stderr: '' });
  });
  test('control: the same process denies a readable write', () => {
    expect(runBuiltHook(call('git push', fixtures.managed)).stdout).toContain('"permissionDecision":"deny"');
  });
});
