import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { machinePath } from '@kit/e2e/src/environment.ts';
import { gitIdentity, runCommand } from '@kit/test-kit';
import { chatCompletionsDialect } from './chat-completions-dialect.ts';
import { geminiDialect } from './gemini-dialect.ts';
import {
  type ModelApi,
  type ModelDialect,
  type ShellStep,
  startModelApi,
  type ToolExchange,
} from './model-api.ts';
import { responsesDialect } from './responses-dialect.ts';

/** The three agent CLIs this suite drives, as `--host` names them. */
export type Host = 'codex' | 'gemini' | 'copilot';

/** What one CLI run left for a scenario to assert on. */
export interface HostRun {
  host: Host;
  exitCode: number | null;
  stdout: string;
  stderr: string;
  exchanges: ToolExchange[]; // each shell call the model made, with what it got back
  api: ModelApi; // closed; kept for its recorded requests
  ms: number;
}

/** One run: where, as whom, which shell calls the model makes. */
export interface HostRunOptions {
  cwd: string; // the project
  home: string; // a scratch HOME (each host keeps its configuration under it)
  script: ShellStep[];
  env?: Record<string, string>; // over the CLI's environment (PATH, TAGOUT_HOOKS_STRICT)
  /** Codex only: pass --dangerously-bypass-hook-trust (default true; false needs the hook trusted). */
  bypassHookTrust?: boolean;
  /** Codex only: TOML tables for config.toml after the model provider (`[mcp_servers.x]`). */
  codexTables?: string;
  timeoutMs?: number;
}

const require = createRequire(import.meta.url);

// A package's folder as node would find it; by the lookup paths, since some (Copilot's platform
// package) export no ./package.json.
function packageDir(name: string, from: NodeJS.Require = require): string {
  const found = (from.resolve.paths(name) ?? [])
    .map((folder) => join(folder, name))
    .find((folder) => existsSync(join(folder, 'package.json')));
  if (found === undefined) throw new Error(`e2e-hosts: ${name} is not installed`);
  return found;
}

const codexTargets: Record<string, string> = {
  'linux-x64': 'x86_64-unknown-linux-musl',
  'linux-arm64': 'aarch64-unknown-linux-musl',
  'darwin-x64': 'x86_64-apple-darwin',
  'darwin-arm64': 'aarch64-apple-darwin',
};

/**
 * Each pinned CLI's program, found through its package the way its own launcher finds it: Codex's
 * and Copilot's native binaries in their platform optional dependencies, Gemini's JS bundle.
 */
export function findHostProgram(host: Host): { command: string; args: string[] } {
  const platform = `${process.platform}-${process.arch}`;
  switch (host) {
    case 'codex': {
      const wrapper = packageDir('@openai/codex');
      const target = codexTargets[platform];
      if (!target) throw new Error(`e2e-hosts: no Codex binary for ${platform}`);
      const native = packageDir(`@openai/codex-${platform}`, createRequire(join(wrapper, 'package.json')));
      return { command: join(native, 'vendor', target, 'bin', 'codex'), args: [] };
    }
    case 'gemini':
      return {
        command: process.execPath,
        args: [join(packageDir('@google/gemini-cli'), 'bundle', 'gemini.js')],
      };
    case 'copilot': {
      const wrapper = packageDir('@github/copilot');
      const native = packageDir(`@github/copilot-${platform}`, createRequire(join(wrapper, 'package.json')));
      return { command: join(native, 'copilot'), args: [] };
    }
  }
}

const dialects: Record<Host, ModelDialect> = {
  codex: responsesDialect,
  gemini: geminiDialect,
  copilot: chatCompletionsDialect,
};

/** The environment every host's CLI starts with: nothing of the machine's but PATH, a scratch HOME, git's identity. */
function baseEnvironment(home: string): Record<string, string> {
  return {
    PATH: machinePath(),
    HOME: home,
    LANG: 'C.UTF-8',
    NO_PROXY: '127.0.0.1,localhost',
    ...gitIdentity,
    // The guards' verdict servers, which the hooks start as users' do, end soon after the suite.
    KIT_HOOKS_SERVER_IDLE_SECONDS: process.env.KIT_HOOKS_SERVER_IDLE_SECONDS ?? '20',
  };
}

/** Where each host keeps its user configuration under a scratch HOME: what `install --host` must be told too. */
export function hostHomeEnv(host: Host, home: string): Record<string, string> {
  if (host === 'codex') return { CODEX_HOME: join(home, '.codex') };
  if (host === 'copilot') return { COPILOT_HOME: join(home, '.copilot') };
  return {};
}

/**
 * The host's own settings a run needs before any guard is installed (the model provider, auth,
 * no telemetry), merged into what is there so an installed hook stays. Idempotent.
 */
export async function prepareHostHome(host: Host, home: string): Promise<void> {
  if (host === 'gemini') {
    const file = join(home, '.gemini', 'settings.json');
    await mkdir(dirname(file), { recursive: true });
    const current = existsSync(file)
      ? (JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>)
      : {};
    const settings = {
      ...current,
      // With GOOGLE_GEMINI_BASE_URL set and no selected type the CLI picks "gateway", which -p refuses.
      security: { auth: { selectedType: 'gemini-api-key' } },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
    };
    await writeFile(file, `${JSON.stringify(settings, null, 2)}\n`);
  }
  if (host === 'codex') await mkdir(join(home, '.codex'), { recursive: true });
  if (host === 'copilot') await mkdir(join(home, '.copilot'), { recursive: true });
}

// Codex reads its model provider from config.toml; top-level keys must come before any table, and
// the trust tables codex itself appends ([hooks.state."…"]) must survive a run's new port.
async function writeCodexConfig(home: string, apiUrl: string, tables = ''): Promise<void> {
  const file = join(home, '.codex', 'config.toml');
  const provider = [
    'model = "gpt-5.5"',
    'model_provider = "standin"',
    'approval_policy = "never"',
    // workspace-write makes .git read-only: a commit the gate lets through must be able to land.
    'sandbox_mode = "danger-full-access"',
    '',
    '[model_providers.standin]',
    'name = "loopback stand-in"',
    `base_url = "${apiUrl}/v1"`,
    'wire_api = "responses"',
    'env_key = "STANDIN_API_KEY"',
    'request_max_retries = 0',
    'stream_max_retries = 0',
    '',
  ].join('\n');
  const current = existsSync(file) ? await readFile(file, 'utf8') : '';
  const trust = current.indexOf('\n[hooks.state');
  await writeFile(file, provider + tables + (trust === -1 ? '' : current.slice(trust + 1)));
}

/** The shared folder Copilot unpacks its 235 MB package into on first start (set by the global setup). */
export function copilotCache(): string {
  const dir = process.env.KIT_E2E_COPILOT_CACHE;
  if (!dir) throw new Error('e2e-hosts: KIT_E2E_COPILOT_CACHE is not set (the global setup sets it)');
  return dir;
}

/** Runs the host's real CLI once, non-interactively, against a fresh stand-in playing `script`. */
export async function runHost(host: Host, options: HostRunOptions): Promise<HostRun> {
  const api = await startModelApi(dialects[host], options.script);
  const started = Date.now();
  try {
    await prepareHostHome(host, options.home);
    const program = findHostProgram(host);
    const prompt = 'Run the next step.';
    const env: Record<string, string> = {
      ...baseEnvironment(options.home),
      ...hostHomeEnv(host, options.home),
    };
    let args: string[];
    switch (host) {
      case 'codex':
        await writeCodexConfig(options.home, api.url, options.codexTables);
        env.STANDIN_API_KEY = 'sk-e2e-loopback';
        // --disable plugins: otherwise it looks up plugins on github.com at start.
        args = [
          'exec',
          '--json',
          '--skip-git-repo-check',
          '--disable',
          'plugins',
          ...(options.bypassHookTrust === false ? [] : ['--dangerously-bypass-hook-trust']),
          prompt,
        ];
        break;
      case 'gemini':
        Object.assign(env, {
          GOOGLE_GEMINI_BASE_URL: api.url,
          GEMINI_API_KEY: 'gemini-e2e-loopback',
          // Headless in an untrusted folder is a fatal error, and only this also loads project hooks.
          GEMINI_CLI_TRUST_WORKSPACE: 'true',
          // One process: a timeout's kill reaches the CLI itself, not a parent that relaunched it.
          GEMINI_CLI_NO_RELAUNCH: 'true',
        });
        // -m: the default "auto" model first asks a router model; yolo: otherwise no shell tool headless.
        args = [
          '-m',
          'gemini-2.5-flash',
          '-p',
          prompt,
          '--output-format',
          'stream-json',
          '--approval-mode',
          'yolo',
        ];
        break;
      case 'copilot':
        Object.assign(env, {
          XDG_CACHE_HOME: copilotCache(),
          COPILOT_PROVIDER_BASE_URL: `${api.url}/v1`,
          COPILOT_PROVIDER_TYPE: 'openai',
          COPILOT_PROVIDER_WIRE_API: 'completions',
          COPILOT_PROVIDER_API_KEY: 'sk-e2e-loopback',
          COPILOT_MODEL: 'gpt-5.4',
          COPILOT_OFFLINE: 'true',
          // Exactly "true": approves the tools and trusts the cwd, so .github/hooks loads.
          COPILOT_ALLOW_ALL: 'true',
          COPILOT_AUTO_UPDATE: 'false',
        });
        args = [
          '-p',
          prompt,
          '--output-format',
          'json',
          '--allow-all-tools',
          '--allow-all-paths',
          '--no-auto-update',
        ];
        break;
    }
    const result = await runCommand(program.command, [...program.args, ...args], {
      cwd: options.cwd,
      env: { ...env, ...options.env },
      timeoutMs: options.timeoutMs ?? 120_000,
    });
    return { host, ...result, exchanges: api.exchanges(), api, ms: Date.now() - started };
  } finally {
    await api.close();
  }
}

/** Enough of a run to see what went wrong when an assertion fails. */
export function describeRun(run: HostRun): string {
  return [
    `${run.host}: exit ${run.exitCode} in ${run.ms} ms`,
    `exchanges: ${JSON.stringify(run.exchanges, null, 1)}`,
    `requests: ${run.api.requests.map((r) => `${r.method} ${r.url} -> ${r.answer}`).join(', ')}`,
    `stderr: ${run.stderr.slice(-2000)}`,
    `stdout: ${run.stdout.slice(-1500)}`,
  ].join('\n');
}
