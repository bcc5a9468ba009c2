import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { bashPayload, type HookInput, judgeInput, readPayload } from '@kit/gate-approval';
import * as gitWriteGate from '@kit/git-write-gate';
import { executable, fillTemplate, hookEnv, startJudge, tempDir, tempRepo, tempTree } from '@kit/test-kit';
import { expect, test } from 'vitest';

// One judge process serves every installed guard of a session: its resident memory with all three
// guards loaded stays flat over 10,000 calls and within the budget (100 MB for a session's
// kit processes), and the run prints it (Linux: RSS from /proc). The judge runs with the node flags
// the kit-judge plugin's .mcp.json gives it: `--max-semi-space-size=1` keeps V8's young generation
// small (its default semi-spaces held the plateau at 110-113 MB on Node 20; with it, about 87 MB).
// The guards' bundles share one mvdan-sh (@kit/shell-segments' load-parser.ts).
const require = createRequire(import.meta.url);
const guards = ['exit-status-guard', 'git-write-gate', 'roseline-gate'] as const;
const distOf = (guard: string, file: string): string =>
  join(require.resolve(`@kit/${guard}/package.json`), '..', 'dist', file);
const budgetMb = 100;
const shippedServer = JSON.parse(
  readFileSync(join(require.resolve('@kit/gate-approval/package.json'), '..', '.mcp.json'), 'utf8'),
) as { mcpServers: { judge: { args: string[] } } };
/** The node flags of the shipped server: its args before the entry file. */
const shippedNodeArgs = shippedServer.mcpServers.judge.args.filter((arg) => arg.startsWith('--'));
const calls = 10_000;
const inFlight = 50;

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
  return Math.round(kb / 102.4) / 10;
}

test.skipIf(process.platform !== 'linux')(
  `one judge for three guards holds a flat RSS over ${calls} calls (budget ${budgetMb} MB)`,
  { timeout: 1_800_000 },
  async () => {
    const project = tempRepo(
      { [gitWriteGate.profileRelativePath]: '---\nname: repo-profile\n---\n' },
      'kit-mcp-mem',
    );
    const bin = tempTree({ dnx: executable('#!/bin/sh\nexit 0\n') }, 'kit-mcp-mem-bin');
    const csharp = tempTree({ 'App.csproj': '', 'Program.cs': 'class P {}\n' }, 'kit-mcp-mem-cs');
    const client = await startJudge(
      distOf('exit-status-guard', 'mcp.cjs'),
      guards.map((guard) => distOf(guard, 'judge.cjs')),
      {
        env: hookEnv({
          PATH: `${bin}:${process.env.PATH}`,
          CLAUDE_PROJECT_DIR: project,
          TMPDIR: tempDir('kit-mcp-mem-tmp'),
        }),
        cwd: project,
        nodeArgs: shippedNodeArgs,
      },
    );
    // A deny and a silent call of each guard, in turn; each .cs Read in its own session (no escape state).
    const rounds: ((i: number) => [string, HookInput])[] = [
      () => ['exit-status-guard', bashPayload('make test | tail -5', { cwd: project, sessionId: 'm' })],
      () => ['exit-status-guard', bashPayload('ls -la', { cwd: project, sessionId: 'm' })],
      () => ['git-write-gate', bashPayload('git commit -m x', { cwd: project, sessionId: 'm' })],
      () => ['git-write-gate', bashPayload('git status | head -3', { cwd: project, sessionId: 'm' })],
      (i) => ['roseline-gate', readPayload(join(csharp, 'Program.cs'), { cwd: csharp, sessionId: `r${i}` })],
      () => ['roseline-gate', readPayload(join(csharp, 'App.csproj'), { cwd: csharp, sessionId: 'm' })],
    ];
    const call = (i: number) => {
      const [guard, payload] = (rounds[i % rounds.length] as (i: number) => [string, HookInput])(i);
      return client.judge(fillTemplate(judgeInput(guard), payload));
    };
    try {
      const started = rssMb(client.pid);
      const denied = (await Promise.all(rounds.map((_r, i) => call(i)))).filter((a) => a.text !== '').length;
      const warm = rssMb(client.pid);
      const samples: number[] = [];
      for (let done = rounds.length, batch = 0; done < calls; done += inFlight, batch++) {
        await Promise.all(
          Array.from({ length: Math.min(inFlight, calls - done) }, (_x, k) => call(done + k)),
        );
        if (batch % 20 === 0) samples.push(rssMb(client.pid));
      }
      const end = rssMb(client.pid);
      const line = {
        startedMb: started,
        warmMb: warm,
        afterCallsMb: end,
        peakMb: Math.max(...samples, end),
        calls,
        samples,
      };
      console.log(`judge RSS: ${JSON.stringify(line)}`);
      expect(denied).toBe(3); // positive control: every guard is loaded and judging
      expect(shippedNodeArgs).toEqual(['--max-semi-space-size=1']);
      expect(Math.max(...samples, end)).toBeLessThanOrEqual(budgetMb);
      // Flat: the second half of the run holds no more than the first half's peak plus a little GC slack.
      const half = Math.floor(samples.length / 2);
      expect(Math.max(...samples.slice(half), end)).toBeLessThanOrEqual(
        Math.max(...samples.slice(0, half)) + 10,
      );
    } finally {
      await client.close();
    }
  },
);
