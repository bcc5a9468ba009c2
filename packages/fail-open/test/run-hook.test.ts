import { PassThrough } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { type HookProtocol, type JsonObject, runHook } from '../src/index.ts';

// A protocol of the test's own: the runtime knows no host's field names.
type V = { kind: 'deny'; reason: string } | { kind: 'none' };
const protocol: HookProtocol<JsonObject, V, V['kind']> = {
  readInput: (payload) => payload,
  toolOf: (input) => (typeof input.tool_name === 'string' ? input.tool_name : null),
  encode: (v) =>
    v.kind === 'deny'
      ? { stdout: `${v.reason}\n`, stderr: '', exitCode: 0, verdict: 'deny' }
      : { stdout: '', stderr: '', exitCode: 0, verdict: 'none' },
};
const denies = (): V => ({ kind: 'deny', reason: 'g: no' });

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
    const output = await runHook(denies, {
      guard: 'g',
      protocol,
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
    const output = await runHook(denies, {
      guard: 'g',
      protocol,
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
    const output = await runHook(denies, {
      guard: 'g',
      protocol,
      ...io,
      env: {},
      budgetMs: 50,
    });
    expect(output).toMatchObject({ verdict: 'none', cause: 'stdin-timeout' });
  });

  test('stdin-error: a stream that fails', async () => {
    const io = streams(null);
    setTimeout(() => io.stdin.destroy(new Error('EIO')), 5);
    const output = await runHook(denies, {
      guard: 'g',
      protocol,
      ...io,
      env: {},
    });
    expect(output).toMatchObject({ verdict: 'none', cause: 'stdin-error' });
  });

  test('onFailOpen receives the cause and the raw text; undefined keeps no opinion', async () => {
    const seen: unknown[] = [];
    const io = streams('[]');
    const output = await runHook((): V => ({ kind: 'none' }), {
      guard: 'g',
      protocol,
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
    const output = await runHook(denies, {
      guard: 'g',
      protocol,
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

// The call's time reaches evaluate as runtime.calledAt: the front's stamp, handed over or carried
// in a served request, is what both paths judge by (roseline-gate's escape, issue 23).
describe('runtime.calledAt: when the host made the call', () => {
  const seen = async (extra: { calledAt?: number }) => {
    let calledAt: number | undefined;
    const before = Date.now();
    await runHook(
      (_input, runtime) => {
        calledAt = runtime.calledAt;
        return { kind: 'none' } as V;
      },
      { guard: 'g', protocol, ...streams('{}'), env: {}, ...extra },
    );
    return { calledAt, before, after: Date.now() };
  };
  test.for([
    ['the time the front stamped, however long ago', 1_700_000_000_000],
    ['a time just now', Date.now() - 5],
  ] as const)('given: %s', async ([, given]) => {
    expect((await seen({ calledAt: given })).calledAt).toBe(given);
  });
  test('the control: none given, with streams of its own: when runHook started', async () => {
    const { calledAt, before, after } = await seen({});
    expect(calledAt).toBeGreaterThanOrEqual(before);
    expect(calledAt).toBeLessThanOrEqual(after);
  });
});
