import { spawnSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { evaluate } from '../src/index.ts';
import { cases } from './cases.ts';
import { bashCall, fakeContext } from './fake-context.ts';
import { rewriteIn } from './rewrite-in.ts';

const denied = cases
  .filter((row) => row.want === 'deny')
  .flatMap((row) =>
    row.commands.map((command) => ({ command, background: row.background === true, rule: row.rule })),
  );
const hasBash = spawnSync('bash', ['--version']).status === 0;

describe('every rewrite parses and passes the guard that suggested it', () => {
  test.for(denied)('$command', ({ command, background }) => {
    const verdict = evaluate(bashCall(command, { background }), fakeContext());
    if (verdict.kind !== 'deny') throw new Error('the table says deny');
    const rewrite = rewriteIn(verdict.reason);
    if (rewrite === null) return; // a reason without a rewrite says what to do in words
    if (hasBash) expect(spawnSync('bash', ['-n', '-c', rewrite]).status, rewrite).toBe(0);
    const again = evaluate(bashCall(rewrite, { background }), fakeContext());
    expect(again.kind === 'deny' ? again.rule : 'silent', rewrite).toBe('silent');
  });
});

test('most denied rows get a rewrite, not only the fallback sentence', () => {
  const withRewrite = denied.filter(({ command, background }) => {
    const verdict = evaluate(bashCall(command, { background }), fakeContext());
    return verdict.kind === 'deny' && rewriteIn(verdict.reason) !== null;
  });
  expect(withRewrite.length / denied.length).toBeGreaterThan(0.9);
});
