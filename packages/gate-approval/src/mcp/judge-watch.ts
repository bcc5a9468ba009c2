import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { isJsonObject } from '@kit/fail-open';
import { readSessionStatus, type SessionStatus, sessionStatusFile } from './session-status.ts';

/** How long the hook waits for a judge that has not recorded itself yet (it may still be starting). */
const startWaitMs = 3000;
const pollMs = 100;

const notConnected =
  "kit: the kit's MCP judge (plugin:kit-judge:judge) is not running in this session, so the kit's guard plugins are not judging any tool call (git-write-gate-strict blocks every Bash call instead). `/mcp` shows why; a new session starts the judge again; `claude --debug` logs its start.";

/** The messages for the user that a status (or its absence) calls for, each with the key it is told once by. */
export function watchMessages(status: SessionStatus | undefined): { key: string; text: string }[] {
  if (status === undefined) return [{ key: 'not-connected', text: notConnected }];
  const messages = status.problems.map((problem) => ({
    key: `problem:${problem}`,
    text: `kit: the MCP judge could not load a guard, whose calls now run unjudged (a strict plugin's are blocked): ${problem}. Reinstalling the guard's plugin (\`claude plugin install <plugin>@kit\`) usually fixes it.`,
  }));
  if (status.restarts > 0) {
    messages.push({
      key: `restarts:${status.restarts}`,
      text: `kit: the MCP judge stopped and Claude Code started it again in this session (${status.restarts} time${status.restarts === 1 ? '' : 's'}): a tool call in flight when it stopped ran unjudged (a strict plugin's was blocked).`,
    });
  }
  return messages;
}

/**
 * The kit-judge plugin's UserPromptSubmit hook (dist/judge-watch.cjs): reads its session's judge
 * record and prints `{"systemMessage": …}` for what the user has not been told yet in this session.
 * Never blocks the prompt; any failure prints nothing.
 */
export async function runJudgeWatch(
  stdinText: string,
  env: Record<string, string | undefined>,
  sleep: (ms: number) => Promise<void>,
): Promise<string> {
  let sessionId: unknown;
  try {
    const payload: unknown = JSON.parse(stdinText);
    sessionId = isJsonObject(payload) ? payload.session_id : undefined;
  } catch {
    return '';
  }
  const file = sessionStatusFile(
    env.CLAUDE_PLUGIN_DATA,
    typeof sessionId === 'string' ? sessionId : undefined,
  );
  if (file === undefined) return '';
  for (let waited = 0; !existsSync(file) && waited < startWaitMs; waited += pollMs) await sleep(pollMs);
  const toldFile = `${file}.told`;
  const told = new Set(readLines(toldFile));
  const fresh = watchMessages(readSessionStatus(file)).filter((message) => !told.has(message.key));
  if (fresh.length === 0) return '';
  try {
    mkdirSync(dirname(toldFile), { recursive: true, mode: 0o700 });
    writeFileSync(toldFile, [...told, ...fresh.map((message) => message.key)].join('\n'), { mode: 0o600 });
  } catch {
    // told again next prompt: better than never
  }
  return `${JSON.stringify({ systemMessage: fresh.map((message) => message.text).join('\n') })}\n`;
}

function readLines(file: string): string[] {
  try {
    return readFileSync(file, 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
}
