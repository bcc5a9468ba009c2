import type { HookProtocol, JsonObject } from '@kit/fail-open';
import type { Verdict } from '../verdict.ts';
import { claudeCode, type HookInput, isDenyOutput } from './claude-code.ts';
import { codex, codexPayloadOf, isCodexDeny } from './codex.ts';
import { copilotCli, copilotPayloadOf, isCopilotDeny } from './copilot-cli.ts';
import { geminiCli, geminiPayloadOf, isGeminiDeny } from './gemini-cli.ts';

/** The agent CLIs the kit's guards run in, as `--host` names them. */
export type HostName = 'claude' | 'codex' | 'gemini' | 'copilot';

/** Every host, the default (`claude`) first. */
export const hostNames: readonly HostName[] = ['claude', 'codex', 'gemini', 'copilot'];

/** One agent CLI's side of a hook call: its wire protocol, and its payload shape for doctor and tests. */
export interface HostAdapter {
  host: HostName;
  title: string; // 'Codex CLI', for messages
  protocol: HookProtocol<HookInput, Verdict, Verdict['kind']>;
  /** A kit call (a Claude-shaped Bash or Read payload) as this host sends it; null when the host has no such tool. */
  payloadOf: (input: HookInput) => JsonObject | null;
  /** True when a hook's stdout is the deny this host acts on. */
  isDenyOutput: (stdout: string) => boolean;
}

/** Each host's adapter, by name. */
export const hostAdapters: Readonly<Record<HostName, HostAdapter>> = {
  claude: {
    host: 'claude',
    title: 'Claude Code',
    protocol: claudeCode,
    payloadOf: (input) => ({ ...input }),
    isDenyOutput,
  },
  codex: {
    host: 'codex',
    title: 'Codex CLI',
    protocol: codex,
    payloadOf: codexPayloadOf,
    isDenyOutput: isCodexDeny,
  },
  gemini: {
    host: 'gemini',
    title: 'Gemini CLI',
    protocol: geminiCli,
    payloadOf: geminiPayloadOf,
    isDenyOutput: isGeminiDeny,
  },
  copilot: {
    host: 'copilot',
    title: 'Copilot CLI',
    protocol: copilotCli,
    payloadOf: copilotPayloadOf,
    isDenyOutput: isCopilotDeny,
  },
};

/** True for a `--host` value the kit knows. */
export function isHostName(value: string): value is HostName {
  return (hostNames as readonly string[]).includes(value);
}
