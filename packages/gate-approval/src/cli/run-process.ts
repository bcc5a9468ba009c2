/** What a finished child process left; `timedOut` when it was killed at its timeout. */
export interface ProcessRun {
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/**
 * Runs a command with `input` on stdin, as a host runs a hook: no shell of its own, killed at
 * `timeoutMs`. Never rejects: a command that cannot start is an exit code of null with the error on stderr.
 */
export async function runProcess(
  command: string,
  args: string[],
  input: string,
  env: Record<string, string | undefined>,
  cwd: string,
  timeoutMs: number,
): Promise<ProcessRun> {
  // Loaded on demand: the hook bundle inlines this package and must not pay for child_process.
  const { spawn } = await import('node:child_process');
  return new Promise((resolvePromise) => {
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const child = spawn(command, args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolvePromise({ exitCode: null, signal: null, stdout, stderr: stderr || error.message, timedOut });
    });
    child.on('close', (exitCode, signal) => {
      clearTimeout(timer);
      resolvePromise({ exitCode, signal, stdout, stderr, timedOut });
    });
  });
}
