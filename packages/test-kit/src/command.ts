import { type ChildProcess, spawn } from 'node:child_process';

/** What a finished subprocess left. */
export interface CommandResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

/** Where and how runCommand runs a command. */
export interface RunCommandOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  input?: string;
}

/** Runs a command without a shell and collects its output; never rejects on a non-zero exit. */
export function runCommand(
  command: string,
  args: string[],
  options: RunCommandOptions,
): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    if (options.input !== undefined) child.stdin?.end(options.input);
    const timeoutMs = options.timeoutMs ?? 60_000;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    collectOutput(child)
      .then((result) => {
        const killed = `\n[kit] ${command} ${args.join(' ')} did not finish within ${timeoutMs} ms: killed`;
        resolve(timedOut ? { ...result, stderr: result.stderr + killed } : result);
      }, reject)
      .finally(() => clearTimeout(timer));
  });
}

/** Collects a started child's output, as text, until it closes; rejects only if it could not start. */
export function collectOutput(child: ChildProcess): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (exitCode) => resolve({ exitCode, stdout, stderr }));
  });
}

/** Throws with the whole output when a command did not exit 0. */
export function expectSuccess(what: string, result: CommandResult): CommandResult {
  if (result.exitCode !== 0) {
    throw new Error(
      `${what} exited ${result.exitCode}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`,
    );
  }
  return result;
}
