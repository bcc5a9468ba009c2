import { afterEach, describe, expect, test, vi } from 'vitest';
import { callsPerCollection, idleMs, memoryKeeper } from '../src/mcp/memory-keeper.ts';

// The judge's collections never hold an answer: the hook runs before the answer is written, so a
// burst's collection is left to the next turn; a pause collects once, after the idle time.
afterEach(() => {
  vi.useRealTimers();
});

describe('memoryKeeper', () => {
  test.for([
    ['a burst: not during the call, once right after it', callsPerCollection, 0, 1],
    ['one call short of a burst: nothing until the pause', callsPerCollection - 1, 0, 0],
  ] as const)('%s', ([_name, calls, during, afterTurn]) => {
    vi.useFakeTimers();
    const collect = vi.fn();
    const afterCall = memoryKeeper(collect);
    for (let i = 0; i < calls; i++) afterCall();
    expect(collect).toHaveBeenCalledTimes(during);
    vi.advanceTimersByTime(0); // the next turn: immediates run, the idle timer has not fired
    expect(collect).toHaveBeenCalledTimes(afterTurn);
    vi.advanceTimersByTime(idleMs); // the pause: one collection more
    expect(collect).toHaveBeenCalledTimes(afterTurn + 1);
  });

  test('no collector (gc could not be had): the hook does nothing', () => {
    expect(() => memoryKeeper(null)()).not.toThrow();
  });
});
