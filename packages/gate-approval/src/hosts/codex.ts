import type { HookProtocol, JsonObject } from '@kit/fail-open';
import type { Verdict } from '../verdict.ts';
import { bashInput, type HookInput, readHookInput } from './claude-code.ts';
import { encodeJsonBlock, parseReply } from './json-reply.ts';

// Codex CLI's PreToolUse protocol (seen with @openai/codex 0.171.0). Its payload is Claude Code's
// with `turn_id` and `model` added: the shell tool is `Bash` with `tool_input: { command }`, `cwd` is
// the command's own workdir, and a sub-agent's call carries `agent_id` / `agent_type`. It has no
// file-read tool (the model reads with the shell), so a Read guard never fires there.

/**
 * A Codex payload as the kit's HookInput: the same field names as Claude Code's, checked the same
 * way. A payload whose `hook_event_name` is not `PreToolUse` is not Codex's: an empty input, which
 * every guard reads as no opinion.
 */
export function readCodexInput(payload: JsonObject): HookInput {
  if (payload.hook_event_name !== 'PreToolUse') return {};
  return readHookInput(payload);
}

/**
 * A verdict as Codex reads it: deny and refuse are exactly `hookEventName`, `permissionDecision:
 * "deny"` and `permissionDecisionReason` under `hookSpecificOutput`, at exit 0. Nothing else: Codex
 * fails the hook (and runs the call) on any field it does not know, at any level.
 */
export function encodeCodexVerdict(verdict: Verdict): ReturnType<typeof encodeJsonBlock> {
  return encodeJsonBlock(verdict, 'codex', (reason) => ({
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: reason,
    },
  }));
}

/** True when a hook's stdout is the deny Codex acts on: the three fields of encodeCodexVerdict and no others. */
export function isCodexDeny(stdout: string): boolean {
  const reply = parseReply(stdout);
  const specific = reply?.hookSpecificOutput as Record<string, unknown> | undefined;
  return (
    reply !== null &&
    Object.keys(reply).length === 1 &&
    typeof specific === 'object' &&
    specific !== null &&
    Object.keys(specific).sort().join(',') === 'hookEventName,permissionDecision,permissionDecisionReason' &&
    specific.hookEventName === 'PreToolUse' &&
    specific.permissionDecision === 'deny' &&
    typeof specific.permissionDecisionReason === 'string' &&
    specific.permissionDecisionReason !== ''
  );
}

/**
 * A kit call (a Claude-shaped Bash payload) as Codex sends it, for doctor and tests; null for any
 * other call, Read included (Codex has no file-read tool).
 */
export function codexPayloadOf(input: HookInput): JsonObject | null {
  const bash = bashInput(input);
  if (bash === null) return null;
  return {
    ...(input.session_id === undefined ? {} : { session_id: input.session_id }),
    turn_id: 'kit',
    ...(input.cwd === undefined ? {} : { cwd: input.cwd }),
    hook_event_name: 'PreToolUse',
    model: 'kit',
    permission_mode: 'bypassPermissions',
    tool_name: 'Bash',
    tool_input: { command: bash.command },
    tool_use_id: 'kit',
    ...(input.agent_id === undefined ? {} : { agent_id: input.agent_id, agent_type: 'default' }),
  };
}

/** Codex CLI's protocol for fail-open's runHook: `runHook(evaluate, { guard, protocol: codex })`. */
export const codex: HookProtocol<HookInput, Verdict, Verdict['kind']> = {
  readInput: readCodexInput,
  toolOf: (input) => input.tool_name ?? null,
  encode: encodeCodexVerdict,
};
