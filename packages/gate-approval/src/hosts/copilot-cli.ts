import { isAbsolute, resolve } from 'node:path';
import { type HookProtocol, isJsonObject, type JsonObject } from '@kit/fail-open';
import type { Verdict } from '../verdict.ts';
import { bashInput, type HookInput, readInput } from './claude-code.ts';
import { encodeJsonBlock, parseReply } from './json-reply.ts';

// Copilot CLI's preToolUse protocol, the camelCase dialect a `.github/hooks/*.json` file with the
// `preToolUse` event gets (seen with @github/copilot 1.0.102): `sessionId`, `timestamp` (epoch ms),
// `cwd`, `toolName` (`bash`, `view`, `task`, …), `toolArgs` (an object in 1.0.102; the reference
// documents a JSON string: both are read), and for a sub-agent's call `agentId`, `agentType`,
// `parentAgentId` with `sessionId` the sub-agent's own. No event name, no tool-call id. The other
// dialect (event `PreToolUse`, or a project's `.claude/settings.json`) is Claude Code's: it runs
// through the claudeCode protocol, and is not read here.

/** The host's name in front of a tool the kit does not map: never mistaken for `Bash` or `Read`. */
const otherToolPrefix = 'copilot:';

/**
 * A Copilot CLI payload as the kit's HookInput: `bash` becomes a `Bash` call, `view` a `Read` of
 * the path resolved against `cwd`; any other tool keeps its name behind `copilot:`. A payload
 * without a string `toolName` (Claude Code's dialect has `tool_name`), or whose `toolArgs` is neither
 * an object nor a JSON text of one, is not this dialect: an empty input, which is no opinion.
 */
export function readCopilotInput(payload: JsonObject): HookInput {
  if (typeof payload.toolName !== 'string') return {};
  const args = toolArgsOf(payload.toolArgs);
  if (args === null) return {};
  const input: HookInput = {};
  if (typeof payload.sessionId === 'string') input.session_id = payload.sessionId;
  if (typeof payload.cwd === 'string') input.cwd = payload.cwd;
  if (typeof payload.agentId === 'string') input.agent_id = payload.agentId;
  if (typeof payload.agentType === 'string') input.agent_type = payload.agentType;
  switch (payload.toolName) {
    case 'bash':
      if (typeof args.command !== 'string') return {};
      return {
        ...input,
        tool_name: 'Bash',
        tool_input: {
          command: args.command,
          ...(typeof args.description === 'string' ? { description: args.description } : {}),
        },
      };
    case 'view':
      if (typeof args.path !== 'string') return {};
      return {
        ...input,
        tool_name: 'Read',
        tool_input: { file_path: resolvedAgainst(input.cwd, args.path) },
      };
    default:
      return { ...input, tool_name: `${otherToolPrefix}${payload.toolName}`, tool_input: args };
  }
}

function toolArgsOf(value: unknown): JsonObject | null {
  if (isJsonObject(value)) return value;
  if (typeof value !== 'string') return null;
  try {
    const parsed: unknown = JSON.parse(value);
    return isJsonObject(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

// The path as given when it is absolute or there is no absolute cwd to resolve it against.
function resolvedAgainst(cwd: string | undefined, path: string): string {
  return isAbsolute(path) || cwd === undefined || !isAbsolute(cwd) ? path : resolve(cwd, path);
}

/**
 * A verdict as Copilot CLI reads it in the camelCase dialect: deny and refuse are
 * `{"permissionDecision":"deny","permissionDecisionReason":…}` at exit 0 (its exit 2 drops stderr,
 * so a reason must be on stdout). Never `ask` or `allow`: `allow` would approve a call the user's
 * permissions refuse.
 */
export function encodeCopilotVerdict(verdict: Verdict): ReturnType<typeof encodeJsonBlock> {
  return encodeJsonBlock(verdict, 'copilot', (reason) => ({
    permissionDecision: 'deny',
    permissionDecisionReason: reason,
  }));
}

/** True when a hook's stdout is the deny Copilot CLI acts on (camelCase dialect). */
export function isCopilotDeny(stdout: string): boolean {
  const reply = parseReply(stdout);
  return (
    reply !== null &&
    reply.permissionDecision === 'deny' &&
    typeof reply.permissionDecisionReason === 'string' &&
    reply.permissionDecisionReason !== ''
  );
}

/**
 * A kit call (a Claude-shaped Bash or Read payload) as Copilot CLI sends it, for doctor and tests;
 * null for any other call. A sub-agent's call gets `agentId` (and `sessionId` stays the one given).
 */
export function copilotPayloadOf(input: HookInput): JsonObject | null {
  const bash = bashInput(input);
  const read = readInput(input);
  const toolCall =
    bash !== null
      ? { toolName: 'bash', toolArgs: { command: bash.command } }
      : read !== null
        ? { toolName: 'view', toolArgs: { path: read.file_path } }
        : null;
  if (toolCall === null) return null;
  return {
    ...(input.session_id === undefined ? {} : { sessionId: input.session_id }),
    timestamp: 0,
    ...(input.cwd === undefined ? {} : { cwd: input.cwd }),
    ...toolCall,
    ...(input.agent_id === undefined ? {} : { agentId: input.agent_id, agentType: 'general-purpose' }),
  };
}

/** Copilot CLI's protocol for fail-open's runHook: `runHook(evaluate, { guard, protocol: copilotCli })`. */
export const copilotCli: HookProtocol<HookInput, Verdict, Verdict['kind']> = {
  readInput: readCopilotInput,
  toolOf: (input) => input.tool_name ?? null,
  encode: encodeCopilotVerdict,
};
