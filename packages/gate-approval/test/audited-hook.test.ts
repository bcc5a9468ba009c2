// The audit trail on by default: guardHook records each deny, refusal, escape and override a guard
// notes, and each would-deny under --monitor, in the call's own environment, the command redacted.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { HookRuntime } from '@kit/fail-open';
import { tempDir, tempTree } from '@kit/test-kit';
import { describe, expect, test } from 'vitest';
import { guardHook } from '../src/audited-hook.ts';
import type { HookInput } from '../src/hosts/claude-code.ts';
import { cannotJudge, deny, none, refuse, type Verdict } from '../src/verdict.ts';

const input: HookInput = {
  session_id: 'sess-1',
  cwd: '/repos/app',
  tool_name: 'Bash',
  tool_input: { command: 'GITHUB_TOKEN=abc123 git push origin main' },
};

function runOnce(
  verdict: Verdict | Promise<Verdict>,
  { argv = [] as string[], notes = [] as Record<string, string>[], env = {} as Record<string, string> } = {},
) {
  const state = tempDir('audit');
  const runtime: HookRuntime = {
    env: { XDG_STATE_HOME: state, ...env },
    raw: '',
    guard: 'demo-gate',
    deadline: 0,
  };
  const hook = guardHook('demo-gate', argv, (_input, inner) => {
    for (const note of notes) inner.note?.(note);
    return verdict;
  });
  const file = join(state, 'kit-hooks', 'audit.jsonl');
  const lines = async () => {
    expect(await hook.evaluate(input, runtime)).toEqual(await verdict);
    return existsSync(file)
      ? readFileSync(file, 'utf8')
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line))
      : [];
  };
  return { lines, file };
}

const where = { guard: 'demo-gate', tool: 'Bash', cwd: '/repos/app', session: 'sess-1' };
const command = 'GITHUB_TOKEN=[redacted] git push origin main';

describe('what one call records', () => {
  test.for([
    ['a deny', deny('demo-gate', 'demo-gate: no.', 'push'), [], [], [{ event: 'deny', rule: 'push' }]],
    [
      'a refusal',
      refuse('demo-gate', 'demo-gate: cannot judge.', 'parse'),
      [],
      [],
      [{ event: 'refuse', rule: 'parse' }],
    ],
    [
      'a monitored deny',
      deny('demo-gate', 'demo-gate: no.', 'push'),
      ['--monitor'],
      [],
      [{ event: 'would-deny', rule: 'push' }],
    ],
    [
      'a monitored refusal',
      refuse('demo-gate', 'demo-gate: x.'),
      ['--monitor'],
      [],
      [{ event: 'would-refuse' }],
    ],
    ['an escape used', none(), [], [{ escape: 'push' }], [{ event: 'escape', rule: 'push' }]],
    ['an override used', none(), [], [{ override: 'pipe' }], [{ event: 'override', rule: 'pipe' }]],
    [
      'an escape, then a deny of another segment',
      deny('demo-gate', 'demo-gate: no.', 'commit'),
      [],
      [{ escape: 'push' }],
      [
        { event: 'escape', rule: 'push' },
        { event: 'deny', rule: 'commit' },
      ],
    ],
    ['no opinion: nothing', none(), [], [{ parser: 'true' }], []],
    ['cannot judge: nothing', cannotJudge('parse-error'), ['--monitor'], [], []],
  ] as const)('%s', async ([, verdict, argv, notes, events]) => {
    const lines = await runOnce(verdict, { argv: [...argv], notes: [...notes] }).lines();
    expect(lines).toEqual(events.map((event) => ({ time: expect.any(String), ...where, command, ...event })));
  });

  test('an evaluate that returns a promise is recorded when it settles', async () => {
    const lines = await runOnce(Promise.resolve(deny('demo-gate', 'demo-gate: no.', 'push'))).lines();
    expect(lines).toMatchObject([{ event: 'deny', rule: 'push', command }]);
  });

  test('the file is 0600 in a 0700 folder', async () => {
    const run = runOnce(deny('demo-gate', 'demo-gate: no.'));
    await run.lines();
    expect(statSync(run.file).mode & 0o777).toBe(0o600);
    expect(statSync(join(run.file, '..')).mode & 0o777).toBe(0o700);
  });
});

describe('off with one switch; never in the way', () => {
  test.for([['off'], ['0'], ['disabled']])('KIT_HOOKS_AUDIT=%s: no file', async ([value]) => {
    const run = runOnce(deny('demo-gate', 'demo-gate: no.'), { env: { KIT_HOOKS_AUDIT: value ?? '' } });
    expect(await run.lines()).toEqual([]);
  });
  test('an audit folder that cannot be made (its parent is a file): the verdict is unchanged', async () => {
    const parent = join(tempTree({ 'state-file': 'x' }), 'state-file');
    const run = runOnce(deny('demo-gate', 'demo-gate: no.'), { env: { XDG_STATE_HOME: parent } });
    expect(await run.lines()).toEqual([]);
  });
});

test('onFailOpen: a strict refusal of an unreadable payload is recorded, no opinion is not', () => {
  const state = tempDir('audit-fail-open');
  const runtime: HookRuntime = { env: { XDG_STATE_HOME: state }, raw: '{', guard: 'demo-gate', deadline: 0 };
  const hook = guardHook(
    'demo-gate',
    ['--strict'],
    () => none(),
    (_cause, inner) =>
      inner.env.TAGOUT_HOOKS_STRICT === '1'
        ? refuse('demo-gate', 'demo-gate: unreadable.', 'payload')
        : undefined,
  );
  expect(hook.onFailOpen?.('invalid-json', runtime)).toMatchObject({ kind: 'refuse' });
  const lines = readFileSync(join(state, 'kit-hooks', 'audit.jsonl'), 'utf8')
    .trim()
    .split('\n');
  expect(lines.map((line) => JSON.parse(line))).toMatchObject([
    { event: 'refuse', rule: 'payload', guard: 'demo-gate' },
  ]);
  const quiet = guardHook(
    'demo-gate',
    [],
    () => none(),
    () => undefined,
  );
  expect(quiet.onFailOpen?.('invalid-json', runtime)).toBeUndefined();
});
