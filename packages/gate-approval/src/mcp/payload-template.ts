import { isJsonObject, type JsonObject } from '@kit/fail-open';
import { stringFields } from '../hosts/claude-code.ts';

// The hook payload a guard reads, as an `mcp_tool` handler's `input` template spells it. The host
// fills each `${field}` from the PreToolUse payload it would write on a command hook's stdin; a
// field the payload lacks becomes "" and `${tool_input}` arrives as a JSON string.
const payloadFields = [...stringFields, 'tool_input'] as const;

/** The `payload` argument of a judge handler: every payload field a guard reads, as a template. */
export function payloadTemplate(): Record<string, string> {
  return Object.fromEntries(payloadFields.map((field) => [field, `\${${field}}`]));
}

/** How a plugin's judge handler asks: on behalf of which plugin, in strict mode, in monitor mode. */
export interface JudgeAsking {
  plugin?: string;
  strict?: boolean;
  monitor?: boolean;
}

/** A judge handler's whole `input`: the guard to ask, how (each mode only when asked), and the payload template. */
export function judgeInput(
  guard: string,
  { plugin, strict = false, monitor = false }: JudgeAsking = {},
): { guard: string; payload: Record<string, string> } & JudgeAsking {
  return {
    guard,
    ...(plugin === undefined ? {} : { plugin }),
    ...(strict ? { strict: true } : {}),
    ...(monitor ? { monitor: true } : {}),
    payload: payloadTemplate(),
  };
}

/**
 * The payload a command hook of the same call would have read, from the handler's filled template:
 * an empty field is a field the host's payload did not have (the template's "" for a missing one),
 * and `tool_input` is parsed back from its JSON text. Fields the template does not name are kept
 * as they came. A `payload` that is not an object gives null.
 */
export function payloadFromArguments(payload: unknown): JsonObject | null {
  if (!isJsonObject(payload)) return null;
  const rebuilt: JsonObject = {};
  for (const [field, value] of Object.entries(payload)) {
    if (value === '') continue;
    rebuilt[field] = field === 'tool_input' ? parsedToolInput(value) : value;
  }
  return rebuilt;
}

function parsedToolInput(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value; // not JSON: the protocol drops a tool_input that is no object, as it would from stdin
  }
}
