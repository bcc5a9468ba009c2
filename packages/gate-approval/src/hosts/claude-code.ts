import {
  type HookOutput,
  type HookProtocol,
  isJsonObject,
  type JsonObject,
  type TraceFields,
} from '@kit/fail-open';
import type { Verdict } from '../verdict.ts';

// Claude Code's PreToolUse protocol, both ways: the payload it writes on stdin (types, readers,
// and builders for tests, explain and positive controls) and the output it reads back. A second
// host is one more module beside this one.

/**
 * The PreToolUse payload the host writes on stdin. Every field is optional here because the
 * host may drop or add fields between versions; unknown fields are accepted and kept.
 */
export interface HookInput {
  session_id?: string;
  transcript_path?: string;
  cwd?: string; // follows `cd` inside the session
  hook_event_name?: string; // 'PreToolUse'
  permission_mode?: string;
  agent_id?: string; // present only for a sub-agent's tool call
  agent_type?: string;
  tool_name?: string; // 'Bash', 'Read', ...: matchers are regexes, so re-check it exactly
  tool_input?: Record<string, unknown>;
  tool_use_id?: string;
  [key: string]: unknown;
}

/** The `tool_input` of a Bash call. */
export interface BashToolInput {
  command: string; // make test | tail -5
  description?: string;
  timeout?: number; // milliseconds
  run_in_background?: boolean;
}

/** The `tool_input` of a Read call. */
export interface ReadToolInput {
  file_path: string; // absolute; backslashes on Windows
  offset?: number;
  limit?: number;
  pages?: string;
}

/** The payload's string fields (every field but `tool_input`), as readHookInput checks them. */
export const stringFields = [
  'session_id',
  'transcript_path',
  'cwd',
  'hook_event_name',
  'permission_mode',
  'agent_id',
  'agent_type',
  'tool_name',
  'tool_use_id',
] as const;

/**
 * A parsed payload as a type-honest HookInput: a known field of the wrong type (a numeric `cwd`,
 * a string `tool_input`) is dropped rather than handed to the guard under a false type, so a guard
 * reading it sees `undefined` and, by its own rules, has no opinion.
 */
export function readHookInput(payload: JsonObject): HookInput {
  const input: HookInput = { ...payload };
  for (const field of stringFields) {
    if (field in input && typeof input[field] !== 'string') delete input[field];
  }
  if ('tool_input' in input && !isJsonObject(input.tool_input)) delete input.tool_input;
  return input;
}

/** The Bash tool input, or null when the call is not `Bash` exactly or `command` is not a string. */
export function bashInput(input: HookInput): BashToolInput | null {
  const toolInput = input.tool_input;
  if (input.tool_name !== 'Bash' || !isJsonObject(toolInput)) return null;
  if (typeof toolInput.command !== 'string') return null;
  return toolInput as unknown as BashToolInput;
}

/** The Read tool input, or null when the call is not `Read` exactly or `file_path` is not a string. */
export function readInput(input: HookInput): ReadToolInput | null {
  const toolInput = input.tool_input;
  if (input.tool_name !== 'Read' || !isJsonObject(toolInput)) return null;
  if (typeof toolInput.file_path !== 'string') return null;
  return toolInput as unknown as ReadToolInput;
}

/** What a built payload carries beside the tool input; a field left out is left out of the payload. */
export interface PayloadOptions {
  cwd?: string;
  sessionId?: string;
  agentId?: string; // a sub-agent's call
}

/** bashPayload's options. */
export interface BashPayloadOptions extends PayloadOptions {
  runInBackground?: boolean;
}

/** readPayload's options. */
export interface ReadPayloadOptions extends PayloadOptions {
  offset?: number;
  limit?: number;
}

/** A Bash call as the host sends it: `bashPayload('make test | tail -5', { cwd: '/repo' })`. */
export function bashPayload(command: string, options: BashPayloadOptions = {}): HookInput {
  const toolInput: BashToolInput = { command };
  if (options.runInBackground !== undefined) toolInput.run_in_background = options.runInBackground;
  return payloadOf('Bash', { ...toolInput }, options);
}

/** A Read call as the host sends it: `readPayload('/repo/App.cs', { cwd: '/repo', sessionId: 's1' })`. */
export function readPayload(filePath: string, options: ReadPayloadOptions = {}): HookInput {
  const toolInput: ReadToolInput = { file_path: filePath };
  if (options.offset !== undefined) toolInput.offset = options.offset;
  if (options.limit !== undefined) toolInput.limit = options.limit;
  return payloadOf('Read', { ...toolInput }, options);
}

function payloadOf(tool: string, toolInput: Record<string, unknown>, options: PayloadOptions): HookInput {
  return {
    ...(options.sessionId === undefined ? {} : { session_id: options.sessionId }),
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    hook_event_name: 'PreToolUse',
    tool_name: tool,
    tool_input: toolInput,
    ...(options.agentId === undefined ? {} : { agent_id: options.agentId }),
  };
}

/**
 * A verdict in the host's PreToolUse protocol. deny: the hookSpecificOutput JSON on stdout, exit 0;
 * refuse: the reason on stderr, exit 2; none and cannotJudge: nothing, exit 0. Never `ask`, never
 * `allow`. Throws a TypeError on a value that is not a Verdict (runHook turns that into no opinion).
 */
export function encodeVerdict(verdict: Verdict): HookOutput<Verdict['kind']> {
  switch (verdict?.kind) {
    case 'none':
      return { stdout: '', stderr: '', exitCode: 0, verdict: 'none', ...fieldsOf(verdict) };
    case 'cannotJudge':
      return {
        stdout: '',
        stderr: '',
        exitCode: 0,
        verdict: 'cannotJudge',
        cause: String(verdict.cause),
        ...fieldsOf(verdict),
      };
    case 'deny': {
      const reason = requireReason(verdict);
      const decision = {
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'deny',
          permissionDecisionReason: reason,
        },
      };
      return {
        stdout: `${JSON.stringify(decision)}\n`,
        stderr: '',
        exitCode: 0,
        verdict: 'deny',
        ...fieldsOf(verdict),
      };
    }
    case 'refuse':
      return {
        stdout: '',
        stderr: `${requireReason(verdict)}\n`,
        exitCode: 2,
        verdict: 'refuse',
        ...fieldsOf(verdict),
      };
    default:
      throw new TypeError(
        `encodeVerdict: expected a Verdict ({ kind: 'none' | 'deny' | 'refuse' | 'cannotJudge' }), got ${describe(verdict)}`,
      );
  }
}

/** The trace's named fields of a verdict: its rule, then its own fields; nothing when it has neither. */
function fieldsOf(verdict: Verdict): { fields?: TraceFields } {
  const fields: Record<string, TraceFields[string]> = {};
  if ('rule' in verdict && typeof verdict.rule === 'string') fields.rule = verdict.rule;
  if (isJsonObject(verdict.fields)) Object.assign(fields, verdict.fields);
  return Object.keys(fields).length === 0 ? {} : { fields };
}

function requireReason(verdict: { kind: string; reason: unknown }): string {
  if (typeof verdict.reason === 'string' && verdict.reason.trim() !== '') return verdict.reason;
  throw new TypeError(
    `encodeVerdict: a ${verdict.kind} needs a non-empty string reason, got ${describe(verdict.reason)}`,
  );
}

function describe(value: unknown): string {
  try {
    return `${JSON.stringify(value) ?? String(value)} (${typeof value})`;
  } catch {
    return typeof value;
  }
}

/** True when a hook's stdout is the deny the host acts on (doctor's check of the positive control). */
export function isDenyOutput(stdout: string): boolean {
  try {
    const output: unknown = JSON.parse(stdout);
    return (
      isJsonObject(output) &&
      isJsonObject(output.hookSpecificOutput) &&
      output.hookSpecificOutput.permissionDecision === 'deny'
    );
  } catch {
    return false;
  }
}

/** Claude Code's protocol for fail-open's runHook: `runHook(evaluate, { guard, protocol: claudeCode })`. */
export const claudeCode: HookProtocol<HookInput, Verdict, Verdict['kind']> = {
  readInput: readHookInput,
  toolOf: (input) => input.tool_name ?? null,
  encode: encodeVerdict,
};
