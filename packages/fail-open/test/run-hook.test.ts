import { PassThrough } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { bashInput, type HookOutput, readInput, runHook } from '../src/index.ts';

type V = { kind: 'deny'; reason: string } | { kind: 'none' };
const encode = (v: V): HookOutput =>
  v.kind === 'deny'
    ? { stdout: `${v.reason}\n`, stderr: '', exitCode: 0, verdict: 'deny' }
    : { stdout: '', stderr: '', exitCode: 0, verdict: 'none' };

function streams(stdinText: string | null) {
  const stdin = new PassThrough();
  if (stdinText !== null) stdin.end(stdinText);
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  stdout.on('data', (c) => {
    out += c;
  });
  return { stdin, stdout, stderr, out: () => out };
}

describe('runHook in process (injected streams)', () => {
  test('the control: a deny is written and returned', async () => {
    const io = streams('{"tool_name":"Bash","tool_input":{"command":"ls"}}');
    const output = await runHook<V>(() => ({ kind: 'deny', reason: 'g: no' }), {
      guard: 'g',
      encode,
      ...io,
      env: {},
    });
    expect(output).toEqual({ stdout: 'g: no\n', stderr: '', exitCode: 0, verdict: 'deny' });
    expect(io.out()).toBe('g: no\n');
  });

  test.for([
    ['stdin-too-large', '{"a":"xxxxxxxxxxxx"}', { maxStdinBytes: 8 }],
    ['invalid-json', '{', {}],
    ['not-an-object', '[1]', {}],
  ] as const)('%s', async ([cause, text, extra]) => {
    const io = streams(text);
    const output = await runHook<V>(() => ({ kind: 'deny', reason: 'g: no' }), {
      guard: 'g',
      encode,
      ...io,
      env: {},
      ...extra,
    });
    expect(output).toMatchObject({ stdout: '', exitCode: 0, verdict: 'none', cause });
    expect(io.out()).toBe('');
  });

  test('stdin-timeout: a stream that never ends', async () => {
    const io = streams(null);
    io.stdin.write('{');
    const output = await runHook<V>(() => ({ kind: 'deny', reason: 'g: no' }), {
      guard: 'g',
      encode,
      ...io,
      env: {},
      budgetMs: 50,
    });
    expect(output).toMatchObject({ verdict: 'none', cause: 'stdin-timeout' });
  });

  test('stdin-error: a stream that fails', async () => {
    const io = streams(null);
    setTimeout(() => io.stdin.destroy(new Error('EIO')), 5);
    const output = await runHook<V>(() => ({ kind: 'deny', reason: 'g: no' }), {
      guard: 'g',
      encode,
      ...io,
      env: {},
    });
    expect(output).toMatchObject({ verdict: 'none', cause: 'stdin-error' });
  });

  test('onFailOpen receives the cause and the raw text; undefined keeps no opinion', async () => {
    const seen: unknown[] = [];
    const io = streams('[]');
    const output = await runHook<V>(() => ({ kind: 'none' }), {
      guard: 'g',
      encode,
      ...io,
      env: {},
      onFailOpen: (cause, runtime) => {
        seen.push([cause, runtime.raw, runtime.guard]);
        return undefined;
      },
    });
    expect(seen).toEqual([['not-an-object', '[]', 'g']]);
    expect(output).toMatchObject({ verdict: 'none', cause: 'not-an-object' });
  });
  test('past the size cap, onFailOpen still gets the part read (a strict guard judges the raw text)', async () => {
    const seen: [string, string][] = [];
    const io = streams(`{"tool_name":"Bash","tool_input":{"command":"git push ${'x'.repeat(200)}"}}`);
    const output = await runHook<V>(() => ({ kind: 'deny', reason: 'g: no' }), {
      guard: 'g',
      encode,
      ...io,
      env: {},
      maxStdinBytes: 100,
      onFailOpen: (cause, runtime) => {
        seen.push([cause, runtime.raw]);
        return undefined;
      },
    });
    expect(output).toMatchObject({ verdict: 'none', cause: 'stdin-too-large' });
    expect(seen[0]?.[0]).toBe('stdin-too-large');
    expect(seen[0]?.[1]).toContain('git push');
    expect(seen[0]?.[1].length).toBeLessThanOrEqual(100);
  });
});

describe('tool input accessors', () => {
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
