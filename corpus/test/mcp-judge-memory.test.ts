import {
  controlCalls,
  measureJudgeMemory,
  memoryBudgetMb,
  shippedNodeArgs,
  startThreeGuardJudge,
} from '../src/judge-memory.ts';
import { expect, test } from 'vitest';

// One judge process serves every installed guard of a session: its resident memory with all three
// guards loaded stays flat over 10,000 calls and within the budget (100 MB for a session's
// kit processes), and the run prints it (Linux: RSS from /proc). The judge runs with the node flags
// the kit-judge plugin's .mcp.json gives it: `--max-semi-space-size=1` keeps V8's young generation
// small (its default semi-spaces held the plateau at 110-113 MB on Node 20; with it, about 87 MB).
// The guards' bundles share one mvdan-sh (@kit/shell-segments' load-parser.ts). The bench's memory
// class (corpus/bench/) runs the same judge on the corpus's real commands.
const calls = 10_000;

test.skipIf(process.platform !== 'linux')(
  `one judge for three guards holds a flat RSS over ${calls} calls (budget ${memoryBudgetMb} MB)`,
  { timeout: 1_800_000 },
  async () => {
    const judge = await startThreeGuardJudge();
    const rounds = controlCalls(judge);
    const call = (i: number) => {
      const [guard, payload] = (rounds[i % rounds.length] as (typeof rounds)[number])(i);
      return judge.judge(guard, payload);
    };
    let denied = 0;
    try {
      const run = await measureJudgeMemory(
        judge.client.pid,
        {
          warmUp: async () => {
            const answers = await Promise.all(rounds.map((_r, i) => call(i)));
            denied = answers.filter((a) => a.text !== '').length;
          },
          call: (i) => call(rounds.length + i),
        },
        { calls, inFlight: 50, sampleEvery: 1000 },
      );
      console.log(`judge RSS: ${JSON.stringify(run)}`);
      expect(denied).toBe(3); // positive control: every guard is loaded and judging
      expect(shippedNodeArgs).toEqual(['--max-semi-space-size=1']);
      expect(run.peakMb).toBeLessThanOrEqual(memoryBudgetMb);
      expect(run.flat).toBe(true);
    } finally {
      await judge.client.close();
    }
  },
);
