import { describe, expect, test } from 'vitest';
import {
  bashInput,
  bashPayload,
  cannotJudge,
  claudeCode,
  deny,
  none,
  readInput,
  readPayload,
  refuse,
  type Verdict,
} from '../src/index.ts';

const encodeVerdict = claudeCode.encode;

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

describe('claudeCode.encode speaks the PreToolUse protocol', () => {
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
  test("named fields for the trace: the rule, then the verdict's own; none when there are neither", () => {
    expect(encodeVerdict(deny('g', 'no', 'piped-gate', { rewrite: 'make check > log' }))).toMatchObject({
      verdict: 'deny',
      fields: { rule: 'piped-gate', rewrite: 'make check > log' },
    });
    expect(encodeVerdict(refuse('g', 'no', 'strict')).fields).toEqual({ rule: 'strict' });
    expect(encodeVerdict(none({ precheck: 'no-gate-word', parser: false })).fields).toEqual({
      precheck: 'no-gate-word',
      parser: false,
    });
    expect(encodeVerdict(cannotJudge('syntax', { parser: true })).fields).toEqual({ parser: true });
    expect('fields' in encodeVerdict(deny('g', 'no'))).toBe(false);
    expect(none({ a: 1 })).toEqual({ kind: 'none', fields: { a: 1 } });
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

describe('claudeCode.readInput: the payload as a type-honest HookInput', () => {
  test('unknown fields are kept, wrong-typed known fields dropped', () => {
    const payload = {
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
      cwd: 42,
      effort: { level: 'medium' },
    };
    expect(claudeCode.readInput(payload)).toEqual({
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
      effort: { level: 'medium' },
    });
  });
  test('a tool_input that is not an object is dropped', () => {
    expect(claudeCode.readInput({ tool_name: 'Bash', tool_input: 'ls' })).toEqual({ tool_name: 'Bash' });
  });
  test('the trace names the tool, or null', () => {
    expect(claudeCode.toolOf(bashPayload('ls'))).toBe('Bash');
    expect(claudeCode.toolOf({})).toBeNull();
  });
});

describe('tool input accessors check tool_name exactly', () => {
  test.for([
    [{ tool_name: 'Bash', tool_input: { command: 'ls' } }, { command: 'ls' }],
    [{ tool_name: 'BashOutput', tool_input: { command: 'ls' } }, null],
    [{ tool_name: 'bash', tool_input: { command: 'ls' } }, null],
    [{ tool_name: 'Bash', tool_input: { command: 1 } }, null],
    [{ tool_name: 'Bash' }, null],
  ] as const)('bashInput(%j)', ([input, want]) => expect(bashInput(input as never)).toEqual(want));
  test.for([
    [
      { tool_name: 'Read', tool_input: { file_path: '/a.cs', offset: 1 } },
      { file_path: '/a.cs', offset: 1 },
    ],
    [{ tool_name: 'NotebookRead', tool_input: { file_path: '/a.cs' } }, null],
    [{ tool_name: 'Read', tool_input: { file_path: null } }, null],
    [{ tool_name: 'Read', tool_input: [] }, null],
  ] as const)('readInput(%j)', ([input, want]) => expect(readInput(input as never)).toEqual(want));
});

describe('payload builders: the call as the host sends it, read back by the readers', () => {
  test('bashPayload', () => {
    expect(bashPayload('make test | tail -5')).toEqual({
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'make test | tail -5' },
    });
    const full = bashPayload('sleep 9', {
      cwd: '/repo',
      sessionId: 's1',
      runInBackground: true,
      agentId: 'a1',
    });
    expect(full).toEqual({
      session_id: 's1',
      cwd: '/repo',
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'sleep 9', run_in_background: true },
      agent_id: 'a1',
    });
    expect(bashInput(claudeCode.readInput(full))).toEqual({ command: 'sleep 9', run_in_background: true });
  });
  test('readPayload', () => {
    const full = readPayload('/repo/App.cs', { cwd: '/repo', sessionId: 's1', offset: 10, limit: 20 });
    expect(full).toEqual({
      session_id: 's1',
      cwd: '/repo',
      hook_event_name: 'PreToolUse',
      tool_name: 'Read',
      tool_input: { file_path: '/repo/App.cs', offset: 10, limit: 20 },
    });
    expect(readInput(claudeCode.readInput(full))).toEqual({
      file_path: '/repo/App.cs',
      offset: 10,
      limit: 20,
    });
  });
});
