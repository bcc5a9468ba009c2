import type { HookInput } from '@kit/gate-approval';
import { describe, expect, test } from 'vitest';
import { evaluate, judgeFailedPayload } from '../src/evaluate.ts';
import { bashCall, fakeContext } from './fake-context.ts';

const offValues = ['off', '0', 'false', 'no', 'disabled', 'OFF', 'Disabled', ' off '];
const onValues = ['on', '1', 'true', 'yes', 'enabled', 'ON', 'Yes'];
const unknownValues = ['', 'maybe', 'offf', 'o n', '2', 'auto'];

const kindOf = (command: string, cwd: string, env: Record<string, string>): string =>
  evaluate(bashCall(command, cwd), fakeContext(env)).kind;

describe('GIT_GATE off ends it, whatever else is set', () => {
  test.for(offValues)('GIT_GATE=%j silences the positive control', (value) => {
    expect(kindOf('git push origin main', '/repos/managed', { GIT_GATE: value })).toBe('none');
  });
  test.for(offValues)('GIT_GATE=%j beats strict mode on an unparseable command', (value) => {
    expect(
      kindOf('git commit -m "unclosed', '/repos/managed', { GIT_GATE: value, TAGOUT_HOOKS_STRICT: '1' }),
    ).toBe('none');
  });
  test.for(offValues)('GIT_GATE=%j beats strict mode on an unreadable payload', (value) => {
    expect(
      judgeFailedPayload(
        '{"command":"git push"',
        { GIT_GATE: value, TAGOUT_HOOKS_STRICT: '1' },
        'invalid-json',
      ),
    ).toBeUndefined();
  });
  const strictPayloads: [string, HookInput, string][] = [
    [
      'a payload for another tool, raw text git-looking',
      { ...bashCall('x'), tool_name: 'BashOutput', tool_input: { id: 'git' } },
      '{"tool_name":"BashOutput","git":1}',
    ],
    ['a missing cwd', { ...bashCall('git push'), cwd: undefined }, ''],
    ['a cwd that is not a directory', bashCall('git push', '/repos/managed/notes.txt'), ''],
  ];
  test.for(strictPayloads)('GIT_GATE=off is read before strict mode looks at %s', ([, input, raw]) => {
    expect(evaluate(input, fakeContext({ TAGOUT_HOOKS_STRICT: '1' }, undefined, raw)).kind).toBe('refuse');
    for (const value of offValues) {
      expect(
        evaluate(input, fakeContext({ TAGOUT_HOOKS_STRICT: '1', GIT_GATE: value }, undefined, raw)).kind,
      ).toBe('none');
    }
  });
  test('control: without the switch, strict mode refuses the unreadable payload', () => {
    expect(
      judgeFailedPayload('{"command":"git push"', { TAGOUT_HOOKS_STRICT: '1' }, 'invalid-json')?.kind,
    ).toBe('refuse');
  });
});

describe('GIT_GATE on skips the repository probe and nothing else', () => {
  test.for(onValues)('GIT_GATE=%j denies in a plain repository and outside any', (value) => {
    expect(kindOf('git push', '/repos/plain', { GIT_GATE: value })).toBe('deny');
    expect(kindOf('git commit -m x', '/outside/work', { GIT_GATE: value })).toBe('deny');
  });
  test('control: without it, a plain repository is silent', () =>
    expect(kindOf('git push', '/repos/plain', {})).toBe('none'));
  test('on does not deny a read, nor what is not git-looking', () => {
    expect(kindOf('git status', '/repos/plain', { GIT_GATE: 'on' })).toBe('none');
    expect(kindOf('ls -la', '/repos/plain', { GIT_GATE: 'on' })).toBe('none');
  });
  test('on keeps the per-command escape', () =>
    expect(kindOf('GIT_GATE=off git push', '/repos/plain', { GIT_GATE: 'on' })).toBe('none'));
  test('on makes an unparseable command in a plain repository refusable in strict mode', () => {
    expect(
      kindOf('git commit -m "unclosed', '/repos/plain', { GIT_GATE: 'on', TAGOUT_HOOKS_STRICT: '1' }),
    ).toBe('refuse');
    expect(kindOf('git commit -m "unclosed', '/repos/plain', { TAGOUT_HOOKS_STRICT: '1' })).toBe('none');
  });
});

describe('unknown values fall through to the default', () => {
  test.for(unknownValues)('GIT_GATE=%j: managed denies, plain is silent', (value) => {
    expect(kindOf('git push', '/repos/managed', { GIT_GATE: value })).toBe('deny');
    expect(kindOf('git push', '/repos/plain', { GIT_GATE: value })).toBe('none');
  });
});

describe('TAGOUT_HOOKS_STRICT accepts 1 on true yes in any case; anything else is the default', () => {
  const unparseable = 'git commit -m "unclosed';
  test.for(['1', 'on', 'true', 'yes', 'TRUE', 'Yes', 'On'])(
    '%j refuses what it cannot judge in a managed repository',
    (value) => {
      expect(kindOf(unparseable, '/repos/managed', { TAGOUT_HOOKS_STRICT: value })).toBe('refuse');
    },
  );
  test.for(['0', 'off', 'enabled', '', 'strict', '2'])('%j is the default: no opinion', (value) => {
    expect(kindOf(unparseable, '/repos/managed', { TAGOUT_HOOKS_STRICT: value })).toBe('cannotJudge');
  });
  test('strict mode does not change a judged write: still a deny', () => {
    expect(kindOf('git push', '/repos/managed', { TAGOUT_HOOKS_STRICT: '1' })).toBe('deny');
  });
});
