import { homedir } from 'node:os';
import { InstalledGuards, judgePluginPlace } from './installed-guards.ts';
import { JudgeModules } from './judge-modules.ts';
import { serveJudge } from './judge-server.ts';
import { serviceTimes } from './service-times.ts';
import { judgeServerDataFolder, sessionRecording, sessionStatusFile } from './session-status.ts';

/**
 * The judge server's process entry (a guard's `dist/mcp.cjs`): serves MCP on the process's stdin
 * and stdout, judging with the process's environment (the session's) and the judge modules its
 * arguments name (absolute paths of guards' `dist/judge.cjs`, loaded after `initialize`). It
 * records its session in the kit's state folder (session-status.ts), as the plugin's judge does. Exits
 * when the host closes stdin. A module that cannot be loaded leaves its guard unserved: each call
 * for it is then an error answer, which a fail-open handler lets through and a strict one blocks.
 */
export async function runJudgeProcess(judgeModules: readonly string[]): Promise<void> {
  // Recorded as the plugin's judge records itself, in the kit's state folder: statusline reads it.
  const dataFolder = judgeServerDataFolder(process.env, homedir());
  const recording = sessionRecording(sessionStatusFile(dataFolder, process.env.CLAUDE_CODE_SESSION_ID));
  await serveJudge({
    input: process.stdin,
    output: process.stdout,
    modules: new JudgeModules(judgeModules, recording.onLoaded),
    onConnected: recording.onConnected,
    onProblem: recording.onProblem,
    onAnswered: serviceTimes(process.env),
  });
  process.exit(0);
}

/**
 * The kit-judge plugin's process entry (`@kit/gate-approval`'s dist/judge-plugin.cjs): the one judge
 * of a session, serving every kit guard plugin installed beside it. It warms up the judge module of
 * each guard plugin of its marketplace enabled for the session, and each call finds its module by
 * the plugin its handler names (see InstalledGuards), keyed by path: a guard updated in the
 * session's course is loaded beside the old one at its next call, the other guards untouched. It
 * records itself and every guard it cannot load for the plugin's UserPromptSubmit hook (session-status.ts).
 */
export async function runPluginJudge(): Promise<void> {
  const guards = new InstalledGuards(judgePluginPlace(process.env));
  const recording = sessionRecording(
    sessionStatusFile(process.env.CLAUDE_PLUGIN_DATA, process.env.CLAUDE_CODE_SESSION_ID),
  );
  await serveJudge({
    input: process.stdin,
    output: process.stdout,
    modules: new JudgeModules(guards.enabledModules(), recording.onLoaded),
    locate: (plugin, guard) => guards.moduleOf(plugin, guard),
    onConnected: recording.onConnected,
    onProblem: recording.onProblem,
    onAnswered: serviceTimes(process.env),
  });
  process.exit(0);
}
