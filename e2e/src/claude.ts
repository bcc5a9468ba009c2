import { existsSync } from 'node:fs';
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gitIdentity, runCommand } from '@kit/test-kit';
import { machinePath } from './environment.ts';
import { type MessagesApi, startMessagesApi, type ToolCall, type ToolResult } from './messages-api.ts';

/** The settings every run gets: as root the CLI refuses --dangerously-skip-permissions, and without
 * acceptEdits a command that writes a file (`touch`, `>`) is held for approval and never runs. */
export const baseSettings = {
  permissions: { allow: ['Bash', 'Read', 'Edit', 'Write'], defaultMode: 'acceptEdits' },
} as const;

/** One stream-json event the CLI printed. */
export type StreamEvent = { type: string; subtype?: string; [key: string]: unknown };

/** A permission denial as the run's `result` event lists it. */
export interface PermissionDenial {
  tool_name: string;
  tool_use_id: string;
  tool_input: Record<string, unknown>;
}

/** Everything a scenario asserts on after one `claude -p` run. */
export interface ClaudeRun {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  events: StreamEvent[];
  result: StreamEvent | undefined; // the closing {"type":"result",...} event
  permissionDenials: PermissionDenial[];
  toolResults: ToolResult[]; // what the model was handed, from the requests the stand-in recorded
  api: MessagesApi; // closed; kept for its recorded requests
  sessionId: string | undefined;
  ms: number;
}

export interface RunClaudeOptions {
  cwd: string;
  home: string; // a scratch HOME: the transcript lands in <home>/.claude/projects
  script: ToolCall[]; // the model's tool calls, one per turn
  prompt?: string;
  /** Merged over baseSettings and passed with --settings (hooks installed by a guard live in the project's own .claude/settings.json). */
  settings?: Record<string, unknown>;
  env?: Record<string, string>; // added to the CLI's environment (TAGOUT_HOOKS_STRICT, PATH, …)
  /** More CLI arguments after the fixed ones (`--plugin-dir <dir>`, `--include-hook-events`). */
  args?: string[];
  timeoutMs?: number;
}

const PLATFORM_PACKAGES: Record<string, string> = {
  'linux-x64': '@anthropic-ai/claude-code-linux-x64',
  'linux-arm64': '@anthropic-ai/claude-code-linux-arm64',
  'darwin-x64': '@anthropic-ai/claude-code-darwin-x64',
  'darwin-arm64': '@anthropic-ai/claude-code-darwin-arm64',
  'win32-x64': '@anthropic-ai/claude-code-win32-x64',
  'win32-arm64': '@anthropic-ai/claude-code-win32-arm64',
};

/**
 * The real CLI's native binary, found through the platform optional dependency of the pinned
 * `@anthropic-ai/claude-code`. Its own `bin/claude.exe` is a placeholder that its postinstall swaps
 * for the binary, and pnpm does not run that postinstall, so the wrapper is never used.
 */
export function findClaudeBinary(): string {
  const fromEnv = process.env.KIT_E2E_CLAUDE;
  if (fromEnv) return fromEnv;
  const require = createRequire(import.meta.url);
  const wrapperDir = dirname(require.resolve('@anthropic-ai/claude-code/package.json'));
  const platformPackage = PLATFORM_PACKAGES[`${process.platform}-${process.arch}`];
  if (!platformPackage)
    throw new Error(`e2e: no Claude Code binary package for ${process.platform}-${process.arch}`);
  const fromWrapper = createRequire(join(wrapperDir, 'package.json'));
  const binaryDir = dirname(fromWrapper.resolve(`${platformPackage}/package.json`));
  const binary = join(binaryDir, process.platform === 'win32' ? 'claude.exe' : 'claude');
  if (!existsSync(binary)) throw new Error(`e2e: ${platformPackage} holds no binary at ${binary}`);
  return binary;
}

/** The environment the CLI starts with: nothing of the machine's but PATH (without the workspace's
 * folders), so no real key or setting of a Claude Code on the machine can leak in. */
export function cliEnvironment(
  apiUrl: string,
  home: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  const env: Record<string, string> = {
    PATH: machinePath(),
    HOME: home,
    LANG: 'C.UTF-8',
    ANTHROPIC_BASE_URL: apiUrl,
    ANTHROPIC_API_KEY: 'sk-ant-e2e-loopback',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1',
    NO_PROXY: '127.0.0.1,localhost',
    // git in the model's Bash calls: an identity (so a commit the guard fails to stop really lands) and no machine config.
    ...gitIdentity,
    // The guards' verdict servers, which the hooks start as users' do, end soon after the suite.
    KIT_HOOKS_SERVER_IDLE_SECONDS: process.env.KIT_HOOKS_SERVER_IDLE_SECONDS ?? '20',
  };
  return { ...env, ...extra };
}

/** Runs `claude -p` once in print mode against a fresh stand-in playing `script`. */
export async function runClaude(options: RunClaudeOptions): Promise<ClaudeRun> {
  const api = await startMessagesApi(options.script);
  const started = Date.now();
  try {
    const settingsDir = join(options.home, '.e2e');
    await mkdir(settingsDir, { recursive: true });
    const settingsFile = join(settingsDir, `settings-${started}-${Math.random().toString(36).slice(2)}.json`);
    await writeFile(settingsFile, JSON.stringify({ ...baseSettings, ...(options.settings ?? {}) }, null, 2));
    const args = [
      '-p',
      options.prompt ?? 'Run the next step.',
      '--settings',
      settingsFile,
      '--output-format',
      'stream-json',
      '--verbose',
      ...(options.args ?? []),
    ];
    // The CLI keeps sockets and session scratchpads under TMPDIR, and hooks inherit it (roseline-gate
    // keeps its escape markers there): one inside the scratch HOME keeps runs apart and /tmp clean.
    const tmp = join(options.home, '.tmp');
    await mkdir(tmp, { recursive: true });
    const { exitCode, stdout, stderr } = await runCommand(findClaudeBinary(), args, {
      cwd: options.cwd,
      env: cliEnvironment(api.url, options.home, { TMPDIR: tmp, ...options.env }),
      timeoutMs: options.timeoutMs ?? 30_000,
    });
    const events = parseEvents(stdout);
    const result = [...events].reverse().find((event) => event.type === 'result');
    const toolResults = api.toolResults();
    if (process.env.KIT_E2E_LOG) {
      // What the model saw, one line per run: for reading the host's wording without a debugger.
      const other = api.otherRequests().map((request) => `${request.method} ${request.url}`);
      const line = { cwd: options.cwd, env: options.env, script: options.script, toolResults, other, result };
      await appendFile(process.env.KIT_E2E_LOG, `${JSON.stringify(line)}\n`);
    }
    return {
      exitCode,
      stdout,
      stderr,
      events,
      result,
      permissionDenials: (result?.permission_denials as PermissionDenial[] | undefined) ?? [],
      toolResults,
      api,
      sessionId: (result?.session_id as string | undefined) ?? undefined,
      ms: Date.now() - started,
    };
  } finally {
    await api.close();
  }
}

function parseEvents(stdout: string): StreamEvent[] {
  const events: StreamEvent[] = [];
  for (const line of stdout.split('\n')) {
    if (!line.trim().startsWith('{')) continue;
    try {
      events.push(JSON.parse(line) as StreamEvent);
    } catch {
      // a partial line: the run was cut; exitCode tells
    }
  }
  return events;
}
