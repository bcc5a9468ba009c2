import { JudgeModules } from './judge-modules.ts';
import { serveJudge } from './judge-server.ts';

/**
 * The judge server's process entry (a guard's `dist/mcp.cjs`): serves MCP on the process's stdin
 * and stdout, judging with the process's environment (the session's) and the judge modules its
 * arguments name (absolute paths of guards' `dist/judge.cjs`, loaded after `initialize`). Exits
 * when the host closes stdin. A module that cannot be loaded leaves its guard unserved: each call
 * for it is then an error answer, which a fail-open handler lets through and a strict one blocks.
 */
export async function runJudgeProcess(judgeModules: readonly string[]): Promise<void> {
  await serveJudge({ input: process.stdin, output: process.stdout, modules: new JudgeModules(judgeModules) });
  process.exit(0);
}
