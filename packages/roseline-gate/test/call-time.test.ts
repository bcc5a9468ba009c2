import { describe, expect, test } from 'vitest';
import { judgeAsServer, realContext } from '../src/context.ts';

// The escape's burst is judged by when the host made the call (src/escape.ts). A hook process is
// started for one call, so its start is that time; a verdict server judges each call as it takes it.
// Its own file: judgeAsServer marks the whole process.
const runtime = { env: {}, raw: '', guard: 'roseline-gate', deadline: Date.now() + 3_000 };
const processStart = () => Date.now() - Math.round(process.uptime() * 1000);

describe("the call's time in realContext", () => {
  test('a hook process: the time the process started, however long ago', () => {
    const before = processStart();
    const { calledAt } = realContext(runtime);
    const after = processStart();
    expect(calledAt).toBeGreaterThanOrEqual(Math.min(before, after) - 1);
    expect(calledAt).toBeLessThanOrEqual(Math.max(before, after) + 1);
  });

  test('a verdict server (after its warm-up): the time the call is judged', () => {
    judgeAsServer();
    const before = Date.now();
    const { calledAt } = realContext(runtime);
    expect(calledAt).toBeGreaterThanOrEqual(before);
    expect(calledAt).toBeLessThanOrEqual(Date.now());
    expect(calledAt).toBeGreaterThan(processStart() + 1); // the positive control: not the process's start
  });
});
