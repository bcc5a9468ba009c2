import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { bashPayload, type HookInput, judgeInput, readPayload } from '@kit/gate-approval';
import * as gitWriteGate from '@kit/git-write-gate';
import {
  executable,
  fillTemplate,
  hookEnv,
  type JudgeAnswer,
  type JudgeClient,
  startJudge,
  tempDir,
  tempRepo,
  tempTree,
} from '@kit/test-kit';

// One judge process serving all three guards of a session, as the kit-judge plugin runs it, and
// its resident memory over many calls: shared by the corpus's judge tests and the bench's memory
// class (corpus/bench/). RSS is Linux only (/proc).

const require = createRequire(import.meta.url);
export const judgedGuards = ['exit-status-guard', 'git-write-gate', 'roseline-gate'] as const;
export type JudgedGuard = (typeof judgedGuards)[number];
/** A guard's built file (`judge.cjs`, `mcp.cjs`, `hook.cjs`), as the workspace links it. */
export const distOf = (guard: JudgedGuard, file: string): string =>
  join(require.resolve(`@kit/${guard}/package.json`), '..', 'dist', file);

/** The budget for a session's kit processes, and the slack "flat" allows for GC timing. */
export const memoryBudgetMb = 100;
export const flatSlackMb = 10;

const shippedServer = JSON.parse(
  readFileSync(join(require.resolve('@kit/gate-approval/package.json'), '..', '.mcp.json'), 'utf8'),
) as { mcpServers: { judge: { args: string[] } } };
/** The node flags of the shipped server (the kit-judge plugin's .mcp.json): its args before the entry file. */
export const shippedNodeArgs: string[] = shippedServer.mcpServers.judge.args.filter((arg) =>
  arg.startsWith('--'),
);

export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
  return Math.round(kb / 102.4) / 10;
}

/** A judge of the three guards, started with the shipped node flags, and the folders its calls use. */
export interface ThreeGuardJudge {
  client: JudgeClient;
  /** A git repository with a repo profile: git-write-gate judges it. */
  project: string;
  /** A C# project: roseline-gate's Reads. */
  csharp: string;
  /** Calls `guard`'s judge tool with `payload` filled into its handler's template. */
  judge: (guard: string, payload: HookInput) => Promise<JudgeAnswer>;
}

export async function startThreeGuardJudge(
  env: Record<string, string | undefined> = {},
): Promise<ThreeGuardJudge> {
  const project = tempRepo(
    { [gitWriteGate.profileRelativePath]: '---\nname: repo-profile\n---\n' },
    'kit-mcp-mem',
  );
  const bin = tempTree({ dnx: executable('#!/bin/sh\nexit 0\n') }, 'kit-mcp-mem-bin');
  const csharp = tempTree({ 'App.csproj': '', 'Program.cs': 'class P {}\n' }, 'kit-mcp-mem-cs');
  const client = await startJudge(
    distOf('exit-status-guard', 'mcp.cjs'),
    judgedGuards.map((guard) => distOf(guard, 'judge.cjs')),
    {
      env: hookEnv({
        PATH: `${bin}:${process.env.PATH}`,
        CLAUDE_PROJECT_DIR: project,
        TMPDIR: tempDir('kit-mcp-mem-tmp'),
        ...env,
      }),
      cwd: project,
      nodeArgs: shippedNodeArgs,
    },
  );
  const judge = (guard: string, payload: HookInput) => client.judge(fillTemplate(judgeInput(guard), payload));
  return { client, project, csharp, judge };
}

/** A deny and a silent call of each guard (each .cs Read in its own session: no escape state): every guard loaded and judging. */
export function controlCalls(j: ThreeGuardJudge): ((i: number) => [string, HookInput])[] {
  const bash = (command: string) => bashPayload(command, { cwd: j.project, sessionId: 'm' });
  return [
    () => ['exit-status-guard', bash('make test | tail -5')],
    () => ['exit-status-guard', bash('ls -la')],
    () => ['git-write-gate', bash('git commit -m x')],
    () => ['git-write-gate', bash('git status | head -3')],
    (i) => [
      'roseline-gate',
      readPayload(join(j.csharp, 'Program.cs'), { cwd: j.csharp, sessionId: `r${i}` }),
    ],
    () => ['roseline-gate', readPayload(join(j.csharp, 'App.csproj'), { cwd: j.csharp, sessionId: 'm' })],
  ];
}

/** RSS over a run: at start, after the warm-up, each sample, at the end; and what the budget makes of it. */
export interface MemoryRun {
  startedMb: number;
  warmMb: number;
  samples: number[];
  endMb: number;
  peakMb: number;
  calls: number;
  withinBudget: boolean;
  /** The second half of the samples (and the end) holds no more than the first half's peak (or the warm figure) plus the slack. */
  flat: boolean;
}

/**
 * Runs `calls` calls (`call(i)`), `inFlight` at a time, after `warmUp`, sampling RSS every
 * `sampleEvery` calls. The caller's calls decide what is judged; this decides only when RSS is read.
 */
export async function measureJudgeMemory(
  pid: number,
  options: { warmUp: () => Promise<unknown>; call: (i: number) => Promise<unknown> },
  { calls, inFlight, sampleEvery }: { calls: number; inFlight: number; sampleEvery: number },
): Promise<MemoryRun> {
  const startedMb = rssMb(pid);
  await options.warmUp();
  const warmMb = rssMb(pid);
  const samples: number[] = [];
  for (let done = 0; done < calls; ) {
    const batch = Math.min(inFlight, calls - done);
    await Promise.all(Array.from({ length: batch }, (_x, k) => options.call(done + k)));
    const before = done;
    done += batch;
    if (Math.floor(done / sampleEvery) > Math.floor(before / sampleEvery)) samples.push(rssMb(pid));
  }
  const endMb = rssMb(pid);
  const peakMb = Math.max(warmMb, ...samples, endMb);
  const half = Math.floor(samples.length / 2);
  const flat =
    Math.max(...samples.slice(half), endMb) <= Math.max(warmMb, ...samples.slice(0, half)) + flatSlackMb;
  return { startedMb, warmMb, samples, endMb, peakMb, calls, withinBudget: peakMb <= memoryBudgetMb, flat };
}
