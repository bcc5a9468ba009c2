import { spawnSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { evaluate } from '../src/index.ts';
import { cases } from './cases.ts';
import { bashCall, fakeContext } from './fake-context.ts';

/** The rewrite a reason hands over: the indented lines after its "…instead:" / "…:" line. */
export function rewriteIn(reason: string): string | null {
  const lines = reason.split('\n');
  const at = lines.findIndex((line) => line.startsWith('  '));
  if (at < 0) return null;
  const block: string[] = [];
  for (const line of lines.slice(at)) {
    if (!line.startsWith('  ')) break;
    block.push(line.slice(2));
  }
  return block.join('\n');
}

const denied = cases
  .filter((row) => row.want === 'deny')
  .flatMap((row) =>
    row.commands.map((command) => ({ command, background: row.background === true, rule: row.rule })),
  );
const hasBash = spawnSync('bash', ['--version']).status === 0;

describe('every rewrite runs as written', () => {
  test.for(denied)('$command', ({ command, background }) => {
    const verdict = evaluate(bashCall(command, { background }), fakeContext());
    if (verdict.kind !== 'deny') throw new Error('the table says deny');
    const rewrite = rewriteIn(verdict.reason);
    if (rewrite === null) return; // a reason without a rewrite says what to do in words
    if (hasBash) expect(spawnSync('bash', ['-n', '-c', rewrite]).status, rewrite).toBe(0);
    const again = evaluate(bashCall(rewrite, { background }), fakeContext());
    expect(again.kind === 'deny' ? again.rule : 'silent', rewrite).not.toBe(verdict.rule);
  });
});
