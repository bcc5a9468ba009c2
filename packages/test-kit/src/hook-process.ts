import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** What a hook process did. */
export interface HookRun {
  exitCode: number | null; // null: killed (the timeout)
  stdout: string;
  stderr: string;
}

/** How a hook process is started. */
export interface HookRunOptions {
  env?: Record<string, string | undefined>; // the whole environment; default hookEnv()
  cwd?: string;
  nodeArgs?: string[]; // before the file: `--import probe.mjs`
  timeoutMs?: number; // default 20 s
}

/** A settings handler in exec form, as install writes it. */
export interface ExecHandler {
  command: string; // 'node'
  args: string[]; // [<bundle>]
}

/** An installed handler as the settings file holds it. */
export interface InstalledHandler extends ExecHandler {
  type: string; // 'command'
  timeout: number; // seconds
  onFailure?: string; // 'block' (--strict)
}

/** The first handler under `matcher` in a settings file's hooks.PreToolUse; throws when there is none. */
export function installedHandler(settingsFile: string, matcher: string): InstalledHandler {
  const settings = JSON.parse(readFileSync(settingsFile, 'utf8')) as {
    hooks?: { PreToolUse?: { matcher?: string; hooks?: InstalledHandler[] }[] };
  };
  const handler = settings.hooks?.PreToolUse?.find((group) => group.matcher === matcher)?.hooks?.[0];
  if (handler === undefined) throw new Error(`no ${matcher} handler in ${settingsFile}`);
  return handler;
}

// Every variable a kit hook reads: a test states the ones it wants, the runner's own never leak in
// (a developer's shell inside Claude Code has CLAUDE_PROJECT_DIR, a CI may set a switch).
const kitVariables = [
  'KIT_HOOKS_TRACE',
  'CLAUDE_PROJECT_DIR',
  'TAGOUT_HOOKS_STRICT',
  'GIT_GATE',
  'ROSELINE_GATE',
  'EXIT_STATUS_GUARD_REGISTRY',
  'PIPE_GUARD_REGISTRY',
];

/** The test runner's environment without the kit's variables, plus `extra`. */
export function hookEnv(extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const name of kitVariables) delete env[name];
  return { ...env, ...extra };
}

/**
 * Runs a hook file as the host does: `node <file>`, the payload on stdin (a string or bytes as they
 * are, anything else as JSON). Never throws; a process that outlives the timeout is killed.
 */
export function runHookFile(file: string, stdin: unknown, options: HookRunOptions = {}): HookRun {
  return runHookCommand(
    { command: process.execPath, args: [...(options.nodeArgs ?? []), file] },
    stdin,
    options,
  );
}

/** Runs an installed handler exactly as the host does: its command and args, the payload on stdin. */
export function runHookCommand(handler: ExecHandler, stdin: unknown, options: HookRunOptions = {}): HookRun {
  const run = spawnSync(handler.command, handler.args, {
    input: typeof stdin === 'string' || Buffer.isBuffer(stdin) ? stdin : JSON.stringify(stdin),
    env: withSystemRoot(options.env ?? hookEnv()),
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    encoding: 'utf8',
    timeout: options.timeoutMs ?? 20_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  return { exitCode: run.status, stdout: run.stdout, stderr: run.stderr };
}

// node does not start on Windows without SystemRoot, whatever environment a test hands it.
function withSystemRoot(env: Record<string, string | undefined>): Record<string, string | undefined> {
  if (process.platform !== 'win32' || env.SystemRoot !== undefined) return env;
  return { ...env, SystemRoot: process.env.SystemRoot ?? 'C:\\Windows' };
}
