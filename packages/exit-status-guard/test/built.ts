import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The built files the host and the user run. */
export const builtHook: string = fileURLToPath(new URL('../dist/hook.cjs', import.meta.url));
export const builtCli: string = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
export const parserProbe: string = fileURLToPath(new URL('./fixtures/parser-probe.mjs', import.meta.url));

/** Runs the built hook bundle as Claude Code does: `node hook.cjs`, the payload on stdin. */
export function runBuiltHook(
  payload: unknown,
  env: Record<string, string> = {},
  nodeArgs: string[] = [],
): { exitCode: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [...nodeArgs, builtHook], {
    input: typeof payload === 'string' ? payload : JSON.stringify(payload),
    env: { ...process.env, KIT_HOOKS_TRACE: '', ...env },
    encoding: 'utf8',
    timeout: 20000,
  });
  return { exitCode: run.status, stdout: run.stdout, stderr: run.stderr };
}
