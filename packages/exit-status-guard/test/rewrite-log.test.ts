import { describe, expect, test } from 'vitest';
import { evaluate } from '../src/index.ts';
import { cases } from './cases.ts';
import { bashCall, fakeContext } from './fake-context.ts';
import { rewriteIn } from './rewrite-in.ts';

// evaluate finds the scratchpad on disk only when a rewrite asks for its log path: a rewrite
// that places a log asks once (also when it is rewritten again) and uses it; any other never asks.

const scratchpad = '/tmp/claude-1/-p/s/scratchpad';
const denied = cases
  .filter((row) => row.want === 'deny')
  .flatMap((row) => row.commands.map((command) => ({ command, background: row.background === true })));

describe('a rewrite asks for the log path exactly when it writes to the log', () => {
  test.for(denied)('$command', ({ command, background }) => {
    let asked = 0;
    const context = fakeContext({
      findScratchpad: () => {
        asked += 1;
        return scratchpad;
      },
    });
    const verdict = evaluate(bashCall(command, { background }), context);
    if (verdict.kind !== 'deny') throw new Error('the table says deny');
    const rewrite = rewriteIn(verdict.reason);
    expect(asked).toBeLessThanOrEqual(1);
    if (rewrite !== null) expect(asked === 1).toBe(rewrite.includes(`${scratchpad}/out.log`));
  });
});

test('the scratchpad is not probed for a rule whose rewrite has no log', () => {
  let probes = 0;
  const context = fakeContext({
    findScratchpad: () => {
      probes += 1;
      return scratchpad;
    },
  });
  expect(evaluate(bashCall('make check; git push'), context)).toMatchObject({ rule: 'sequenced-mutator' });
  expect(probes).toBe(0);
  expect(evaluate(bashCall('make check | tail'), context)).toMatchObject({ rule: 'piped-gate' });
  expect(probes).toBe(1);
});
