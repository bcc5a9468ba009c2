import { parse } from '@kit/shell-segments';
import { describe, expect, test } from 'vitest';
import { evaluate } from '../src/index.ts';
import { findFirstHit } from '../src/evaluate.ts';
import { chooseLogPath } from '../src/log-path.ts';
import { loadRegistry } from '../src/registry.ts';
import { rewriteFor, rewriteUsesLog } from '../src/rewrites.ts';
import { buildUnit } from '../src/unit.ts';
import { cases } from './cases.ts';
import { bashCall, fakeContext } from './fake-context.ts';

// evaluate looks for the scratchpad on disk only for the rules whose rewrite places a log: every
// other rewrite must come out the same whatever the log path.

const registry = loadRegistry({ env: {}, cwd: '/p', readText: () => null });
const denied = cases
  .filter((row) => row.want === 'deny')
  .flatMap((row) => row.commands.map((command) => ({ command, background: row.background === true })));

describe('a rewrite that does not use the log path', () => {
  test.for(denied)('$command', ({ command, background }) => {
    const outcome = parse(command);
    if (!outcome.ok) throw new Error(outcome.message);
    const hit = findFirstHit(buildUnit(outcome, registry), background);
    if (hit === null || hit === 'override') throw new Error('the table says deny');
    const inScratchpad = rewriteFor(hit, chooseLogPath('/tmp/claude-1/-p/s/scratchpad'));
    const fallback = rewriteFor(hit, chooseLogPath(null));
    if (!rewriteUsesLog(hit.rule)) expect(inScratchpad).toBe(fallback);
  });
});

test('the scratchpad is not probed for a rule whose rewrite has no log', () => {
  let probes = 0;
  const context = fakeContext({
    findScratchpad: () => {
      probes += 1;
      return '/tmp/claude-1/-p/s/scratchpad';
    },
  });
  expect(evaluate(bashCall('make check; git push'), context)).toMatchObject({ rule: 'sequenced-mutator' });
  expect(probes).toBe(0);
  expect(evaluate(bashCall('make check | tail'), context)).toMatchObject({ rule: 'piped-gate' });
  expect(probes).toBe(1);
});
