import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { collectOutput, type HookRun, hookEnv, runHookFile } from '@kit/test-kit';

/** What a fixture process did, and how long it took. */
export interface ProcessResult extends HookRun {
  ms: number;
}

export function fixturePath(name: string): string {
  return fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
}

/** Runs a fixture guard as the host does: a new node process, the payload on stdin. */
export function runFixture(
  name: string,
  stdin: string | Buffer,
  env: Record<string, string> = {},
): ProcessResult {
  const started = Date.now();
  const run = runHookFile(fixturePath(name), stdin, { env: hookEnv(env), timeoutMs: 15_000 });
  return { ...run, ms: Date.now() - started };
}

/** Runs a fixture and feeds stdin through `feed`, which may dribble bytes or never close the pipe. */
export function runFixtureFed(
  name: string,
  feed: (stdin: NodeJS.WritableStream & { end: () => void }) => void,
  env: Record<string, string> = {},
): Promise<ProcessResult> {
  const started = Date.now();
  const child = spawn(process.execPath, [fixturePath(name)], { env: hookEnv(env) });
  child.stdin.on('error', () => undefined); // the hook may stop reading first
  const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  const finished = collectOutput(child).finally(() => clearTimeout(killer));
  feed(child.stdin);
  return finished.then((result) => ({ ...result, ms: Date.now() - started }));
}

// fail-open depends on no kit package, so gate-approval's bashPayload is not at hand: the fixtures'
// stand-in protocol reads Claude Code's field names, and this is a payload of that shape.
export const bashPayload = (command: string): string =>
  JSON.stringify({
    session_id: 's1',
    cwd: '/tmp',
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command },
    tool_use_id: 'toolu_1',
  });

export const denyLine = (reason: string): string =>
  `${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason } })}\n`;
