import { stat } from 'node:fs/promises';
import { onPath, type Outcome } from '@kit/fail-open';
import type { CliIO, GuardDefinition } from '../guard.ts';
import { judgeInput } from '../mcp/payload-template.ts';
import { usage } from './args.ts';
import { handlerTimeoutSeconds, planInstall } from './handler.ts';
import type { HostWiring } from './host-wiring.ts';
import { judgeFiles, judgeServerName, judgeToolName, type JudgeServerScope } from './judge-server-entry.ts';
import { runProcess } from './run-process.ts';
import type { Scope } from './scope.ts';

/** How the host reaches the guard: a command hook (a process per call) or the session's MCP judge. */
export type Transport = 'mcp' | 'command';

/** The first Claude Code the kit has seen run `mcp_tool` hooks (spec/mcp-judge.md). */
export const firstMcpToolVersion = [2, 1, 332] as const;

/** What install chose, and the one line that says so. */
export interface TransportChoice {
  transport: Transport;
  line: string;
  server?: JudgeServerScope; // for mcp
}

interface Asked {
  option: string | undefined; // --transport
  strict: boolean;
  monitor: boolean;
}

/**
 * The MCP path when this setup can take it (Claude Code, user or local scope, the guard ships a
 * judge, `claude` on PATH and new enough to declare and run the server), the command hook
 * otherwise; `--transport` overrides, and an MCP path that cannot be had is then refused with why.
 */
export async function chooseTransport(
  guard: GuardDefinition,
  wiring: HostWiring,
  scope: Scope,
  projectDir: string | null,
  asked: Asked,
  io: CliIO,
): Promise<Outcome<TransportChoice, 'usage'>> {
  const { option } = asked;
  if (option !== undefined && option !== 'mcp' && option !== 'command')
    return usage(`--transport takes mcp or command, got "${option}"`);
  if (wiring.host !== 'claude')
    return option === 'mcp'
      ? usage(`--transport mcp is not yet on ${wiring.title}: it keeps the command hook`)
      : { ok: true, value: { transport: 'command', line: '' } };
  if (option === 'command')
    return { ok: true, value: { transport: 'command', line: commandLine('as --transport command asked') } };
  const obstacle = await mcpObstacle(guard, scope, asked, io);
  if (typeof obstacle === 'string')
    return option === 'mcp'
      ? usage(`--transport mcp cannot be had: ${obstacle}`)
      : { ok: true, value: { transport: 'command', line: commandLine(obstacle) } };
  return {
    ok: true,
    value: {
      transport: 'mcp',
      line: `transport: mcp_tool, through the session's judge server ${judgeServerName} (Claude Code ${obstacle.version}; no process per call; \`--transport command\` keeps a command hook)`,
      server: { scope, projectDir, claude: obstacle.claude },
    },
  };
}

function commandLine(why: string): string {
  return `transport: command hook (${why})`;
}

// Why this setup cannot take the MCP path, or the claude CLI that can declare it.
async function mcpObstacle(
  guard: GuardDefinition,
  scope: Scope,
  asked: Asked,
  io: CliIO,
): Promise<string | { claude: string; version: string }> {
  if (asked.monitor) return '--monitor records through the command hook';
  if (scope === 'project')
    return 'a project server in .mcp.json runs only once each user approves it, and every call of a session before that would run unguarded';
  const files = judgeFiles(guard);
  if (!(await isFile(files.module)) || !(await isFile(files.server)))
    return `${guard.name} ${guard.version} ships no MCP judge (dist/judge.cjs, dist/mcp.cjs)`;
  const claude = onPath('claude', io.env);
  if (!claude)
    return 'claude is not on PATH, and install declares the judge server only through `claude mcp add`';
  const run = await runProcess(claude, ['--version'], '', { ...io.env, HOME: io.home }, io.home, 30_000);
  const version = /(\d+)\.(\d+)\.(\d+)/.exec(run.stdout);
  if (run.exitCode !== 0 || version === null)
    return '`claude --version` did not say which Claude Code this is';
  const parts = version.slice(1, 4).map(Number);
  const older = firstMcpToolVersion.findIndex((part, index) => parts[index] !== part);
  if (older !== -1 && (parts[older] ?? 0) < (firstMcpToolVersion[older] ?? 0))
    return `Claude Code ${version[0]} is older than ${firstMcpToolVersion.join('.')}, the first the kit has seen run mcp_tool hooks`;
  return { claude, version: version[0] };
}

async function isFile(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isFile(),
    () => false,
  );
}

/** The handler of the MCP path: the judge tool of the shared server, asked for this guard. */
export function judgeHandler(guardName: string, strict: boolean): Record<string, unknown> {
  return {
    type: 'mcp_tool',
    server: judgeServerName,
    tool: judgeToolName,
    input: judgeInput(guardName),
    timeout: handlerTimeoutSeconds,
    ...(strict ? { onFailure: 'block' } : {}),
  };
}

/** Claude Code's wiring with the MCP handler in place of the command one (every other part the same). */
export function mcpWiring(claude: HostWiring): HostWiring {
  return {
    ...claude,
    planInstall: (document, guard, _handlerArg, { strict }) =>
      planInstall(document, guard, judgeHandler(guard.name, strict)),
  };
}
