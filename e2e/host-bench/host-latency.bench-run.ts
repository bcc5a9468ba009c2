import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { repoRoot } from '@kit/test-kit';
import { afterAll, expect, inject, test } from 'vitest';
import { type ClaudeRun, runClaude } from '../src/claude.ts';
import { requireKit } from '../src/kit.ts';
import type { RecordedRequest, ToolCall } from '../src/messages-api.ts';
import { unpackGuard, unpackedPlugin } from '../src/plugin.ts';
import { removeScratch, scratchDir, scratchRepo } from '../src/scratch.ts';

const source = inject('kitSource');
afterAll(removeScratch);

// The cost of a guard in the real host: Claude Code 2.1.332 in print mode against the loopback
// Messages API stand-in, one session per path and round, the paths interleaved in each round. Per
// Bash call, the gap between the stand-in's last byte of the model's tool call and the CLI's next
// request (which carries the tool's result): the host's hooks, the command itself, and the host's
// own work, which every path shares. The first call of a session is left out (process and judge
// start-up, first compile). The kit's MCP path also reports its judge's resident memory, read in the
// session (the judge records its pid for the session: kit-judge's session-status.ts). A bare
// `mcp_tool` hook, on a server that judges nothing (bare-mcp-server.cjs), is the host's own floor
// for any hook of that type.
// KIT_HOST_BENCH_ROUNDS (default 5) and KIT_HOST_BENCH_CALLS (timed calls per session, default 8).
const rounds = Number(process.env.KIT_HOST_BENCH_ROUNDS ?? 5);
const timedCalls = Number(process.env.KIT_HOST_BENCH_CALLS ?? 8);
const out = process.env.KIT_HOST_BENCH_OUT ?? join(repoRoot, 'bench', 'results', 'host-latency.json');

type PathName =
  | 'no hook'
  | "bare `node -e ''` command hook"
  | 'kit command path'
  | 'kit MCP path'
  | 'bare mcp_tool hook'
  | 'cc-safety-net 2.4.5';
// The peer, as bench/ installs it (`pnpm bench` puts it in its cache folder): measured when it is there.
const peerBin = join(
  process.env.KIT_BENCH_CACHE ?? join(homedir(), '.cache', 'kit-bench'),
  'cc-safety-net-2.4.5',
  'node_modules',
  'cc-safety-net',
  'dist',
  'bin',
  'cc-safety-net.js',
);
const paths: PathName[] = [
  'no hook',
  "bare `node -e ''` command hook",
  'kit command path',
  'kit MCP path',
  'bare mcp_tool hook',
  ...(existsSync(peerBin) ? (['cc-safety-net 2.4.5'] as const) : []),
];

const bash = (command: string): ToolCall => ({ name: 'Bash', input: { command, description: 'bench' } });
const timedCommand = 'git log --oneline | head -3';
const readJudgeRss = bash(
  'for f in "$HOME"/.claude/plugins/data/*/sessions/*.json; do p=$(sed \'s/.*"pid":\\([0-9]*\\).*/\\1/\' "$f"); grep VmRSS /proc/$p/status; done',
);

const commandHandler = (args: string[]) => ({ type: 'command', command: 'node', args, timeout: 5 });
const hooksOf = (handlers: object[]) => ({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: handlers }] } });
const bundle = (guard: string) => join(repoRoot, 'packages', guard, 'dist', 'hook.cjs');

async function mcpPluginArgs(): Promise<string[]> {
  const { judgeDir, guardDir } = await unpackedPlugin(source, 'exit-status-guard');
  const gate = await unpackGuard(
    requireKit(source).packages,
    'git-write-gate',
    join(dirname(guardDir), 'git-write-gate'),
  );
  return [judgeDir, guardDir, gate].flatMap((dir) => ['--plugin-dir', dir]);
}

// The bare mcp_tool hook: its server declared for the session (--mcp-config), its calls counted.
const bareServer = join(repoRoot, 'e2e', 'host-bench', 'bare-mcp-server.cjs');
const bareHandler = {
  type: 'mcp_tool',
  server: 'bare',
  tool: 'judge',
  input: { command: '${tool_input.command}' },
  timeout: 5,
};
async function bareMcpArgs(calls: string): Promise<string[]> {
  const config = join(await scratchDir('host-bench-bare-mcp'), 'mcp.json');
  const server = { command: 'node', args: [bareServer], env: { BARE_MCP_CALLS: calls } };
  writeFileSync(config, JSON.stringify({ mcpServers: { bare: server } }));
  return ['--mcp-config', config];
}
const bareCalls = (calls: string) =>
  existsSync(calls) ? readFileSync(calls, 'utf8').split('\n').length - 1 : 0;
let bareCallsCounted = 0;

async function pathArgs(path: PathName, home: string): Promise<string[]> {
  if (path === 'kit MCP path') return mcpPluginArgs();
  if (path === 'bare mcp_tool hook') return bareMcpArgs(join(home, 'bare-mcp-calls'));
  return [];
}

async function session(path: PathName, round: number): Promise<ClaudeRun> {
  const script = [...Array.from({ length: timedCalls + 1 }, () => bash(timedCommand))];
  if (path === 'kit MCP path') script.push(readJudgeRss);
  const settings =
    path === "bare `node -e ''` command hook"
      ? hooksOf([commandHandler(['-e', ''])])
      : path === 'kit command path'
        ? hooksOf([commandHandler([bundle('exit-status-guard')]), commandHandler([bundle('git-write-gate')])])
        : path === 'bare mcp_tool hook'
          ? hooksOf([bareHandler])
          : path === 'cc-safety-net 2.4.5'
            ? hooksOf([commandHandler([peerBin, 'hook', '--coding-cli'])])
            : {};
  const home = await scratchDir(`host-bench-home-${round}`);
  const run = await runClaude({
    cwd: await scratchRepo(`host-bench-${round}`),
    home,
    script,
    settings,
    args: await pathArgs(path, home),
    timeoutMs: 300_000,
  });
  if (path === 'bare mcp_tool hook') bareCallsCounted += bareCalls(join(home, 'bare-mcp-calls'));
  return run;
}

/** Each timed call's gap, ms: from the tool call's answer sent to the request carrying its result. */
function gaps(run: ClaudeRun): number[] {
  const requests = run.api.requests.filter((r) => r.answer !== 'other');
  const gapOf = (call: RecordedRequest): number | undefined => {
    const next = requests.find(
      (r) =>
        (r.at ?? 0) > (call.answeredAt ?? 0) &&
        JSON.stringify(r.body).includes(`"tool_use_id":"${call.toolUseId}"`),
    );
    return next?.at === undefined || call.answeredAt === undefined ? undefined : next.at - call.answeredAt;
  };
  const calls = requests.filter((r) => r.answer === 'tool_use' && r.toolUseId !== undefined);
  return calls
    .slice(1, timedCalls + 1)
    .map(gapOf)
    .filter((gap): gap is number => gap !== undefined);
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length === 0
    ? Number.NaN
    : sorted.length % 2
      ? (sorted[mid] as number)
      : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};
const round1 = (n: number) => Math.round(n * 10) / 10;

test('Claude Code, per Bash call: no hook, bare node hook, the kit command path, the kit MCP path', async () => {
  const samples = new Map<PathName, number[]>(paths.map((p) => [p, []]));
  const judgeRssMb: number[] = [];
  for (let round = 0; round < rounds; round++) {
    // Interleaved, the order turned each round: no path always runs first on a cold cache.
    const order = paths.map((_p, i) => paths[(i + round) % paths.length] as PathName);
    for (const path of order) {
      const run = await session(path, round);
      samples.get(path)?.push(...gaps(run));
      if (path === 'kit MCP path') {
        const kb = /VmRSS:\s+(\d+)/.exec(run.toolResults.at(-1)?.text ?? '')?.[1];
        if (kb !== undefined) judgeRssMb.push(round1(Number(kb) / 1024));
      }
    }
  }
  const medians = Object.fromEntries(paths.map((p) => [p, round1(median(samples.get(p) ?? []))])) as Record<
    PathName,
    number
  >;
  const added = (p: PathName) => round1(medians[p] - medians['no hook']);
  const bareAdds = added("bare `node -e ''` command hook");
  const result = {
    host: 'claude-code 2.1.332, print mode, loopback Messages API stand-in',
    node: process.version,
    rounds,
    timedCallsPerSession: timedCalls,
    command: timedCommand,
    medianGapMs: medians,
    addedOverNoHookMs: Object.fromEntries(paths.map((p) => [p, added(p)])),
    // null when the bare hook measured no cost: the run was too noisy to say.
    mcpAddsOfBareNodeAdds: bareAdds > 0 ? round1(added('kit MCP path') / bareAdds) : null,
    // The host's own floor for an mcp_tool hook, in the same units: what no MCP judge can go below.
    bareMcpToolAddsOfBareNodeAdds: bareAdds > 0 ? round1(added('bare mcp_tool hook') / bareAdds) : null,
    bareMcpToolCalls: bareCallsCounted,
    budget:
      'the kit MCP path adds at most 1/10 of what the bare node hook adds (median after the first call)',
    judgeRssMb,
    peer: existsSync(peerBin)
      ? peerBin
      : 'cc-safety-net not in the bench cache (run `pnpm bench` once): skipped',
    samples: Object.fromEntries([...samples].map(([p, s]) => [p, s.map(round1)])),
  };
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
  const table = paths.map((p) => `| ${p} | ${medians[p]} ms | ${added(p)} ms |`).join('\n');
  console.log(
    `| path | median gap | added over no hook |\n|---|---:|---:|\n${table}\nMCP adds ${result.mcpAddsOfBareNodeAdds} of the bare node hook's addition (a bare mcp_tool hook ${result.bareMcpToolAddsOfBareNodeAdds}); judge RSS ${judgeRssMb.join(', ')} MB`,
  );
  // Not a budget check (a bench never fails on a number): only that every path was measured.
  for (const p of paths) expect(samples.get(p)?.length, p).toBeGreaterThan(0);
  // The bare hook reached its server on every call of every session (else its floor is not a floor).
  expect(bareCallsCounted).toBeGreaterThanOrEqual(rounds * (timedCalls + 1));
});
