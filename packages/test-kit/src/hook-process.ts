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
  nodeArgs?: string[]; // before the file: `--require probe.cjs`
  timeoutMs?: number; // default 20 s
  /**
   * The folder Claude Code was started in: `${CLAUDE_PROJECT_DIR}` in a handler's args becomes it,
   * and the hook gets it as CLAUDE_PROJECT_DIR, as the host does. Default: the env's
   * CLAUDE_PROJECT_DIR, else `cwd`.
   */
  projectDir?: string;
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
  'KIT_HOOKS_SERVER',
  'KIT_HOOKS_TRACE',
  'CLAUDE_PROJECT_DIR',
  'TAGOUT_HOOKS_STRICT',
  'GIT_GATE',
  'ROSELINE_GATE',
  'EXIT_STATUS_GUARD_REGISTRY',
  'PIPE_GUARD_REGISTRY',
  'KIT_HOOKS_AUDIT',
];

/**
 * The node that runs hook processes: `KIT_TEST_NODE` when set (the README test command's second
 * pass, with Node 24), else the one running the tests.
 */
export function hookNode(): string {
  return process.env.KIT_TEST_NODE || process.execPath;
}

/**
 * The test runner's environment without the kit's variables, plus `extra`. The verdict server is
 * off (`KIT_HOOKS_SERVER=off`) unless `extra` turns it on: a test's own TMPDIR would start a server
 * of its own on every test, and the server's path is tested where it is the subject (fail-open's
 * verdict-server tests, e2e). The audit trail is off unless `extra` names an XDG_STATE_HOME.
 */
export function hookEnv(extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const name of kitVariables) delete env[name];
  // The audit trail is on by default, under XDG_STATE_HOME (else ~/.local/state): a test that names
  // no state folder of its own has it off, so no hook a test runs writes into the developer's home.
  const audit = extra.XDG_STATE_HOME === undefined ? { KIT_HOOKS_AUDIT: 'off' } : {};
  return { ...env, KIT_HOOKS_SERVER: 'off', ...audit, ...extra };
}

/**
 * Runs a hook file as the host does: `node <file>`, the payload on stdin (a string or bytes as they
 * are, anything else as JSON). Never throws; a process that outlives the timeout is killed.
 */
export function runHookFile(file: string, stdin: unknown, options: HookRunOptions = {}): HookRun {
  return runHookCommand({ command: hookNode(), args: [...(options.nodeArgs ?? []), file] }, stdin, options);
}

const projectDirPlaceholder = '${CLAUDE_PROJECT_DIR}';

/**
 * Runs an installed handler exactly as the host does: its command and args, the payload on stdin.
 * An arg holding `${CLAUDE_PROJECT_DIR}` (a project install) is expanded as Claude Code 2.1.332
 * does, and the process gets CLAUDE_PROJECT_DIR; without a project folder to give it, that throws.
 * With KIT_TEST_NODE set, a handler's `node` is that node (hookNode).
 */
export function runHookCommand(handler: ExecHandler, stdin: unknown, options: HookRunOptions = {}): HookRun {
  let env = options.env ?? hookEnv();
  let args = handler.args;
  if (args.some((arg) => arg.includes(projectDirPlaceholder))) {
    const projectDir = options.projectDir ?? env.CLAUDE_PROJECT_DIR ?? options.cwd;
    if (projectDir === undefined)
      throw new Error(
        `runHookCommand: ${JSON.stringify(handler.args)} names ${projectDirPlaceholder}; pass projectDir (or cwd) to say where Claude Code runs`,
      );
    args = args.map((arg) => arg.split(projectDirPlaceholder).join(projectDir));
    env = { ...env, CLAUDE_PROJECT_DIR: projectDir };
  }
  const command = handler.command === 'node' && process.env.KIT_TEST_NODE ? hookNode() : handler.command;
  const run = spawnSync(command, args, {
    input: typeof stdin === 'string' || Buffer.isBuffer(stdin) ? stdin : JSON.stringify(stdin),
    env: withSystemRoot(env),
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
