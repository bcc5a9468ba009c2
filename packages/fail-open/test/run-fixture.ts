import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** What a fixture process did. */
export interface ProcessResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
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
  const run = spawnSync(process.execPath, [fixturePath(name)], {
    input: stdin,
    env: { ...process.env, KIT_HOOKS_TRACE: '', ...env },
    encoding: 'utf8',
    timeout: 15_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  return { exitCode: run.status, stdout: run.stdout, stderr: run.stderr, ms: Date.now() - started };
}

/** Runs a fixture and feeds stdin through `feed`, which may dribble bytes or never close the pipe. */
export function runFixtureFed(
  name: string,
  feed: (stdin: NodeJS.WritableStream & { end: () => void }) => void,
  env: Record<string, string> = {},
): Promise<ProcessResult> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [fixturePath(name)], {
      env: { ...process.env, KIT_HOOKS_TRACE: '', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.stdin.on('error', () => undefined); // the hook may stop reading first
    const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.on('close', (exitCode) => {
      clearTimeout(killer);
      resolve({ exitCode, stdout, stderr, ms: Date.now() - started });
    });
    feed(child.stdin);
  });
}

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
