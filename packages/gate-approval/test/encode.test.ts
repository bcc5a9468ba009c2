import { describe, expect, test } from 'vitest';
import { cannotJudge, deny, encodeVerdict, none, refuse, type Verdict } from '../src/index.ts';

describe('verdict builders put the guard name in front of the reason', () => {
  test('deny', () =>
    expect(deny('exit-status-guard', 'use set -o pipefail', 'piped-gate')).toEqual({
      kind: 'deny',
      reason: 'exit-status-guard: use set -o pipefail',
      rule: 'piped-gate',
    }));
  test('deny without a rule has no rule key', () =>
    expect(deny('g', 'x')).toEqual({ kind: 'deny', reason: 'g: x' }));
  test('refuse', () =>
    expect(refuse('git-write-gate', 'cannot judge', 'strict')).toEqual({
      kind: 'refuse',
      reason: 'git-write-gate: cannot judge',
      rule: 'strict',
    }));
  test('none and cannotJudge', () => {
    expect(none()).toEqual({ kind: 'none' });
    expect(cannotJudge('syntax')).toEqual({ kind: 'cannotJudge', cause: 'syntax' });
  });
});

describe('encodeVerdict speaks the PreToolUse protocol', () => {
  test('deny: the exact JSON line on stdout, exit 0', () => {
    expect(encodeVerdict(deny('g', 'say "why"\nand how'))).toEqual({
      stdout:
        '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"g: say \\"why\\"\\nand how"}}\n',
      stderr: '',
      exitCode: 0,
      verdict: 'deny',
    });
  });
  test('refuse: the reason on stderr, exit 2, nothing on stdout', () => {
    expect(encodeVerdict(refuse('g', 'no'))).toEqual({
      stdout: '',
      stderr: 'g: no\n',
      exitCode: 2,
      verdict: 'refuse',
    });
  });
  test('none: nothing, exit 0', () =>
    expect(encodeVerdict(none())).toEqual({ stdout: '', stderr: '', exitCode: 0, verdict: 'none' }));
  test('cannotJudge: nothing, exit 0, the cause kept for the trace', () => {
    expect(encodeVerdict(cannotJudge('syntax'))).toEqual({
      stdout: '',
      stderr: '',
      exitCode: 0,
      verdict: 'cannotJudge',
      cause: 'syntax',
    });
  });
  test('never ask, never allow', () => {
    for (const verdict of [deny('g', 'x'), refuse('g', 'x'), none(), cannotJudge('c')]) {
      const { stdout, stderr } = encodeVerdict(verdict);
      expect(stdout + stderr).not.toMatch(/"(ask|allow|approve)"/);
    }
  });
  test.for([
    ['null', null],
    ['an unknown kind', { kind: 'ask', reason: 'x' }],
    ['a deny without reason', { kind: 'deny' }],
    ['a deny with an empty reason', { kind: 'deny', reason: ' ' }],
    ['a refuse with a numeric reason', { kind: 'refuse', reason: 2 }],
  ])('throws a TypeError for %s (runHook makes that no opinion)', ([, value]) => {
    expect(() => encodeVerdict(value as unknown as Verdict)).toThrow(TypeError);
  });
});
