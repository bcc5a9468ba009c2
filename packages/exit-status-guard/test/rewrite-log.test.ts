import { parse } from '@kit/shell-segments';
import { describe, expect, test } from 'vitest';
import { evaluate } from '../src/index.ts';
import { decide } from '../src/decide.ts';
import { chooseLogPath } from '../src/log-path.ts';
import { loadRegistry } from '../src/registry.ts';
import { readShells } from '../src/shell.ts';
import { cases } from './cases.ts';
import { bashCall, fakeContext, noFiles } from './fake-context.ts';

// evaluate finds the scratchpad on disk only when a rewrite asks for its log path: a rewrite
// that places a log asks once and uses it; any other never asks.

const registry = loadRegistry({ env: {}, cwd: '/p', readText: noFiles });
const scratchpadLog = chooseLogPath('/tmp/claude-1/-p/s/scratchpad');
const denied = cases
  .filter((row) => row.want === 'deny')
  .flatMap((row) => row.commands.map((command) => ({ command, background: row.background === true })));

describe('a rewrite asks for the log path exactly when it writes to the log', () => {
  test.for(denied)('$command', ({ command, background }) => {
    const outcome = parse(command, { maxNesting: 4 });
    if (!outcome.ok) throw new Error(outcome.message);
    const decision = decide({
      top: readShells(outcome.value, registry),
      mode: background ? 'background-task' : 'foreground',
    });
    if (decision.kind !== 'deny') throw new Error('the table says deny');
    let asked = 0;
    const rewrite = decision.denial.rewrite(() => {
      asked += 1;
      return scratchpadLog;
    });
    expect(asked).toBeLessThanOrEqual(1);
    expect(asked === 1).toBe(rewrite.ok && rewrite.value.includes(scratchpadLog.path));
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
