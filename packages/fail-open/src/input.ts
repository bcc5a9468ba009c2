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

const stringFields = [
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

/** True for a plain JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The parsed payload as a type-honest HookInput: a known field of the wrong type (a numeric
 * `cwd`, a string `tool_input`) is dropped rather than handed to the guard under a false type,
 * so a guard reading it sees `undefined` and, by its own rules, has no opinion.
 */
export function toHookInput(value: Record<string, unknown>): HookInput {
  const input: HookInput = { ...value };
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
