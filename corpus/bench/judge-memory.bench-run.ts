import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { bashPayload, readPayload } from '@kit/gate-approval';
import { repoRoot, tempDir } from '@kit/test-kit';
import { expect, test } from 'vitest';
import { readCommands } from '../src/commands.ts';
import {
  controlCalls,
  flatSlackMb,
  measureJudgeMemory,
  memoryBudgetMb,
  startThreeGuardJudge,
} from '../src/judge-memory.ts';

// The bench's memory class (`pnpm bench`): the kit-judge as a session runs it (one process, all three
// guards, the shipped node flags), asked about the corpus's real Bash commands over stdio, each by
// both Bash guards at once (a session's two handlers), and every tenth call a Read for roseline-gate.
// RSS at start, after the warm-up, every 1,000 calls and at the end, against the budget: within
// 100 MB and flat. It also records the judge's own service time per call (KIT_JUDGE_SERVICE_TIMES).
// Never fails on a number. KIT_MEMORY_BENCH_CALLS (default 10,000), KIT_MEMORY_BENCH_OUT.
const calls = Number(process.env.KIT_MEMORY_BENCH_CALLS ?? 10_000);
const out = resolve(
  join(repoRoot, 'bench'),
  process.env.KIT_MEMORY_BENCH_OUT ?? join('results', 'judge-memory.json'),
);
const commands = readCommands().map((row) => row.command);
const bashGuards = ['exit-status-guard', 'git-write-gate'] as const;

const quantile = (values: number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * q))] ?? Number.NaN;
};
const round3 = (n: number) => Math.round(n * 1000) / 1000;

test.skipIf(process.platform !== 'linux')('judge memory over the corpus', { timeout: 600_000 }, async () => {
  const times = join(tempDir('kit-memory-bench'), 'service-times.jsonl');
  const judge = await startThreeGuardJudge({ KIT_JUDGE_SERVICE_TIMES: times });
  const controls = controlCalls(judge);
  const cs = join(judge.csharp, 'Program.cs');
  // Call i: every tenth a Read in a session of its own, else corpus command ⌊i/2⌋ to one Bash guard.
  const call = (i: number) =>
    i % 10 === 9
      ? judge.judge('roseline-gate', readPayload(cs, { cwd: judge.csharp, sessionId: `r${i}` }))
      : judge.judge(
          bashGuards[i % 2] as string,
          bashPayload(commands[Math.floor(i / 2) % commands.length] as string, {
            cwd: judge.project,
            sessionId: 'bench',
          }),
        );
  let denied = 0;
  let answered = 0;
  try {
    const run = await measureJudgeMemory(
      judge.client.pid,
      {
        warmUp: async () => {
          const answers = await Promise.all(controls.map((c, i) => judge.judge(...c(i))));
          denied = answers.filter((a) => a.text !== '').length;
        },
        call: async (i) => {
          if (!(await call(i)).isError) answered++;
        },
      },
      { calls, inFlight: 2, sampleEvery: 1000 },
    );
    // The judge records a call after writing its answer: its last line is there once it has exited.
    await judge.client.close();
    const serviceMs = readFileSync(times, 'utf8')
      .trimEnd()
      .split('\n')
      .slice(controls.length)
      .map((line) => (JSON.parse(line) as { ms: number }).ms);
    const result = {
      judge:
        'one kit judge (exit-status-guard dist/mcp.cjs) serving exit-status-guard, git-write-gate, roseline-gate',
      node: process.version,
      answered,
      corpusCommands: commands.length,
      budget: `${memoryBudgetMb} MB RSS, flat (second half of the samples within ${flatSlackMb} MB of the first half's peak)`,
      ...run,
      met: run.withinBudget && run.flat,
      serviceTimeMs: {
        calls: serviceMs.length,
        median: round3(quantile(serviceMs, 0.5)),
        p95: round3(quantile(serviceMs, 0.95)),
        max: round3(Math.max(...serviceMs)),
      },
    };
    mkdirSync(join(out, '..'), { recursive: true });
    writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
    console.log(
      [
        `judge memory, ${calls} calls from the corpus: start ${run.startedMb} MB, warm ${run.warmMb} MB, every 1,000 calls ${run.samples.join(', ')} MB, end ${run.endMb} MB`,
        `budget ${memoryBudgetMb} MB, flat: ${result.met ? 'met' : 'not met'} (peak ${run.peakMb} MB, ${run.flat ? 'flat' : 'not flat'})`,
        `judge service time per call: median ${result.serviceTimeMs.median} ms, p95 ${result.serviceTimeMs.p95} ms`,
        `JSON: ${out}`,
      ].join('\n'),
    );
    // Not a budget check: only that the judge was loaded and judging (the positive control).
    expect(denied).toBe(3);
    expect(answered).toBe(calls);
  } finally {
    await judge.client.close();
  }
});
