import { describe, expect, test } from 'vitest';
import { realContext } from '../src/context.ts';

// The escape's burst is judged by when the host made the call (src/escape.ts). The runtime carries
// that time (runHook's `calledAt`: the bundle's front stamps it as the hook process starts, and the
// verdict server and the body in process both pass it on); realContext takes it as it is.
const runtime = { env: {}, raw: '', guard: 'roseline-gate', deadline: Date.now() + 3_000 };

describe("the call's time in realContext", () => {
  test.for([
    ['a call made a while ago (served, or answered in process late)', Date.now() - 60_000],
    ['a call made now', Date.now()],
  ] as const)('%s: the runtime\u2019s time, however late the judge runs', ([, calledAt]) => {
    expect(realContext({ ...runtime, calledAt }).calledAt).toBe(calledAt);
  });

  test('the control: a runtime built by hand without one leaves it to evaluate (now)', () => {
    expect(realContext(runtime).calledAt).toBeUndefined();
  });
});
