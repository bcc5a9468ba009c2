import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { isJsonObject } from '@kit/fail-open';
import type { CliIO } from '../guard.ts';
import { runProcess } from './run-process.ts';
import type { Scope } from './scope.ts';

/**
 * The one MCP server every npx-installed guard of a scope shares: Claude Code starts it once per
 * session (one process, whatever the number of guards), with the judge modules its args name.
 */
export const judgeServerName = 'kit-judge';

/** The tool the handlers call (the judge lists no tools: the model never sees it). */
export const judgeToolName = 'judge';

/** The guard's own files for the MCP path, beside its hook bundle. */
export function judgeFiles(guard: { bundle: string }): { module: string; server: string } {
  const dist = dirname(guard.bundle);
  return { module: join(dist, 'judge.cjs'), server: join(dist, 'mcp.cjs') };
}

/** The server as Claude Code has it declared: `node <server program> <judge module>...`. */
export interface JudgeServerEntry {
  command: string;
  args: string[];
}

/** Where a scope's declaration lives and how `claude mcp` is run for it. */
export interface JudgeServerScope {
  scope: Scope; // 'user' | 'local': project servers (.mcp.json) wait for each user's approval
  projectDir: string | null; // the key of a local declaration in ~/.claude.json, and the cwd of `claude mcp`
  claude: string; // the claude CLI, resolved on PATH
}

const claudeRunMs = 30_000;

/**
 * The declared server, read from ~/.claude.json (user: `mcpServers`; local: `projects.<dir>.mcpServers`).
 * Read only: Claude Code rewrites that file itself, so the kit changes it only through `claude mcp`.
 */
export async function readJudgeServer(at: JudgeServerScope, io: CliIO): Promise<JudgeServerEntry | null> {
  let document: unknown;
  try {
    document = JSON.parse(await readFile(join(io.home, '.claude.json'), 'utf8'));
  } catch {
    return null;
  }
  if (!isJsonObject(document)) return null;
  const projects = document.projects;
  const holder =
    at.scope === 'user'
      ? document
      : isJsonObject(projects) && at.projectDir !== null
        ? projects[at.projectDir]
        : undefined;
  const servers = isJsonObject(holder) ? holder.mcpServers : undefined;
  const entry = isJsonObject(servers) ? servers[judgeServerName] : undefined;
  if (!isJsonObject(entry) || typeof entry.command !== 'string' || !Array.isArray(entry.args)) return null;
  return { command: entry.command, args: entry.args.filter((arg): arg is string => typeof arg === 'string') };
}

/** The judge modules a declaration names (every argument after the server program). */
export function judgeModulesOf(entry: JudgeServerEntry | null): string[] {
  return entry === null ? [] : entry.args.slice(1);
}

/**
 * The server's arguments with `module` in (or out of) its list, the program as `program`; null when
 * no module is left (the declaration goes).
 */
export function judgeArgs(
  entry: JudgeServerEntry | null,
  program: string,
  module: string,
  present: boolean,
): string[] | null {
  const others = judgeModulesOf(entry).filter((named) => named !== module);
  const modules = present ? [...others, module] : others;
  return modules.length === 0 ? null : [program, ...modules];
}

/**
 * Declares the server with `args` (or removes it, for null) through Claude Code's own writer:
 * `claude mcp remove` then `claude mcp add -s <scope>`. Null when done, else the CLI's words.
 */
export async function declareJudgeServer(
  at: JudgeServerScope,
  declared: JudgeServerEntry | null,
  args: string[] | null,
  io: CliIO,
): Promise<string | null> {
  if (declared !== null) {
    const removed = await runClaude(at, ['mcp', 'remove', '-s', at.scope, judgeServerName], io);
    if (removed !== null) return removed;
  }
  if (args === null) return null;
  return runClaude(at, ['mcp', 'add', '-s', at.scope, judgeServerName, '--', 'node', ...args], io);
}

async function runClaude(at: JudgeServerScope, args: string[], io: CliIO): Promise<string | null> {
  const run = await runProcess(
    at.claude,
    args,
    '',
    { ...io.env, HOME: io.home },
    at.projectDir ?? io.home,
    claudeRunMs,
  );
  if (run.exitCode === 0) return null;
  const said = (run.stderr.trim() || run.stdout.trim()).split('\n')[0] ?? '';
  return `\`claude ${args.slice(0, 4).join(' ')}\` failed (${run.timedOut ? 'timed out' : `exit ${run.exitCode}`}: ${said})`;
}
