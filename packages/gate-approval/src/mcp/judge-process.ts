import { InstalledGuards, judgePluginPlace } from './installed-guards.ts';
import { JudgeModules } from './judge-modules.ts';
import { serveJudge } from './judge-server.ts';
import { serviceTimes } from './service-times.ts';
import { sessionRecorder, sessionStatusFile } from './session-status.ts';

/**
 * The judge server's process entry (a guard's `dist/mcp.cjs`): serves MCP on the process's stdin
 * and stdout, judging with the process's environment (the session's) and the judge modules its
 * arguments name (absolute paths of guards' `dist/judge.cjs`, loaded after `initialize`). Exits
 * when the host closes stdin. A module that cannot be loaded leaves its guard unserved: each call
 * for it is then an error answer, which a fail-open handler lets through and a strict one blocks.
 */
export async function runJudgeProcess(judgeModules: readonly string[]): Promise<void> {
  await serveJudge({
    input: process.stdin,
    output: process.stdout,
    modules: new JudgeModules(judgeModules),
    onAnswered: serviceTimes(process.env),
  });
  process.exit(0);
}

/**
 * The kit-judge plugin's process entry (`@kit/gate-approval`'s dist/judge-plugin.cjs): the one judge
 * of a session, serving every kit guard plugin installed beside it. It warms up the judge module of
 * each guard plugin of its marketplace that Claude Code installed, and each call finds its module by
 * the plugin its handler names (see InstalledGuards), keyed by path: a guard updated in the
 * session's course is loaded beside the old one at its next call, the other guards untouched. It
 * records itself and every guard it cannot load for the plugin's UserPromptSubmit hook (session-status.ts).
 */
export async function runPluginJudge(): Promise<void> {
  const guards = new InstalledGuards(judgePluginPlace(process.env));
  // Recorded once the host says the connection is up: a judge the host gave up on before that (it
  // was slow to start past MCP_TIMEOUT) never served the session, and the user must hear of it.
  const statusFile = sessionStatusFile(process.env.CLAUDE_PLUGIN_DATA, process.env.CLAUDE_CODE_SESSION_ID);
  let record: ReturnType<typeof sessionRecorder> | undefined;
  const recorder = () => {
    record ??= sessionRecorder(statusFile);
    return record;
  };
  await serveJudge({
    input: process.stdin,
    output: process.stdout,
    modules: new JudgeModules(guards.installedModules()),
    locate: (plugin, guard) => guards.moduleOf(plugin, guard),
    onConnected: recorder,
    onProblem: (problem) => recorder().problem(problem),
    onAnswered: serviceTimes(process.env),
  });
  process.exit(0);
}
