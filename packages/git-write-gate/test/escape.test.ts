import { describe, expect, test } from 'vitest';
import { evaluate } from '../src/evaluate.ts';
import { bashCall, fakeContext } from './fake-context.ts';

const subAgent = { agent_id: 'agent-7', agent_type: 'general-purpose' };
const reasonOf = (verdict: ReturnType<typeof evaluate>): string =>
  'reason' in verdict ? verdict.reason : '';

describe('the per-command escape on the main thread', () => {
  test.for([
    'GIT_GATE=off git push origin main',
    'GIT_GATE=0 git commit -m x',
    'GIT_GATE=OFF git reset --hard',
    "GIT_GATE='no' git clean -fd",
    'env GIT_GATE=disabled git push',
    'GIT_GATE=false bash -c "git push"',
    'cd /repos/managed && GIT_GATE=off git push',
  ])('%s passes', (command) => {
    expect(evaluate(bashCall(command), fakeContext()).kind).toBe('none');
  });
  test.for([
    'GIT_GATE=on git push',
    'GIT_GATE=maybe git push',
    'GIT_GATE=off git status && git push',
    'GIT_GATE=off; git push',
    'export GIT_GATE=off; git push',
  ])('%s still denies: the escape covers only the segment it prefixes', (command) => {
    expect(evaluate(bashCall(command), fakeContext()).kind).toBe('deny');
  });
  test('the deny reason offers it, as a command that runs', () => {
    expect(reasonOf(evaluate(bashCall('git push origin main'), fakeContext()))).toContain(
      '`GIT_GATE=off git push origin main`',
    );
  });
});

describe('a sub-agent is never given the escape', () => {
  test.for(['GIT_GATE=off git push origin main', 'env GIT_GATE=0 git commit -m x'])(
    '%s still denies',
    (command) => {
      const verdict = evaluate(bashCall(command, '/repos/managed', subAgent), fakeContext());
      expect(verdict.kind).toBe('deny');
      expect(reasonOf(verdict)).toContain('withheld from sub-agents');
      expect(reasonOf(verdict)).not.toContain('prefix it');
    },
  );
  test('an empty agent_id is the main thread', () => {
    expect(
      evaluate(bashCall('GIT_GATE=off git push', '/repos/managed', { agent_id: '' }), fakeContext()).kind,
    ).toBe('none');
  });
});

describe('an unparseable command keeps the escape only as a prefix at its very start (strict, managed)', () => {
  const strict = fakeContext({ TAGOUT_HOOKS_STRICT: 'yes' });
  test.for(['GIT_GATE=off git commit -m "unclosed', "GIT_GATE='0' git log )(", 'GIT_GATE=no\tgit push "'])(
    '%s passes',
    (command) => {
      expect(evaluate(bashCall(command), strict).kind).toBe('none');
    },
  );
  test.for([
    ' GIT_GATE=off git commit -m "unclosed',
    'echo x; GIT_GATE=off git commit -m "unclosed',
    'GIT_GATE=on git commit -m "unclosed',
    'GIT_GATE=offgit push "',
  ])('%j is refused', (command) => expect(evaluate(bashCall(command), strict).kind).toBe('refuse'));
  test('the refusal names the start-of-command escape', () => {
    expect(reasonOf(evaluate(bashCall('git commit -m "unclosed'), strict))).toContain('very start');
  });
  test('a sub-agent gets no escape, and the reason says so', () => {
    const verdict = evaluate(
      bashCall('GIT_GATE=off git commit -m "unclosed', '/repos/managed', subAgent),
      strict,
    );
    expect(verdict.kind).toBe('refuse');
    expect(reasonOf(verdict)).toContain('withheld from sub-agents');
  });
  test('a nested refusal keeps the segment escape on the main thread', () => {
    expect(evaluate(bashCall('GIT_GATE=off eval "$X" && git status'), strict).kind).toBe('none');
    expect(evaluate(bashCall('eval "$X" && git status'), strict).kind).toBe('refuse');
  });
});
