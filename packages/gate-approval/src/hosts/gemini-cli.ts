import { isAbsolute, resolve } from 'node:path';
import { type HookProtocol, isJsonObject, type JsonObject } from '@kit/fail-open';
import type { Verdict } from '../verdict.ts';
import { bashInput, type HookInput, readHookInput, readInput } from './claude-code.ts';
import { encodeJsonBlock, parseReply } from './json-reply.ts';

// Gemini CLI's BeforeTool protocol (seen with @google/gemini-cli 0.61.0). The payload has Claude
// Code's field names for the session, but its own tool names and arguments: the shell is
// `run_shell_command` `{ command, description?, dir_path?, is_background? }`, where `dir_path`
// (relative to `cwd`) is where the command runs; reading is `read_file` `{ file_path }`, the path
// as the model gave it, often relative. A sub-agent's call carries no marker at all.

/** The host's name in front of a tool the kit does not map: never mistaken for `Bash` or `Read`. */
const otherToolPrefix = 'gemini:';

/**
 * A Gemini CLI payload as the kit's HookInput: `run_shell_command` becomes a `Bash` call (`cwd`
 * joined with `dir_path`), `read_file` a `Read` of the path resolved against `cwd`; any other tool
 * keeps its name behind `gemini:`. A payload whose `hook_event_name` is not `BeforeTool`, or whose
 * tool arguments are not an object, is not Gemini's: an empty input, which is no opinion.
 */
export function readGeminiInput(payload: JsonObject): HookInput {
  if (payload.hook_event_name !== 'BeforeTool' || typeof payload.tool_name !== 'string') return {};
  const args = payload.tool_input;
  if (!isJsonObject(args)) return {};
  const input = readHookInput(payload);
  const cwd = input.cwd;
  switch (payload.tool_name) {
    case 'run_shell_command': {
      if (typeof args.command !== 'string') return {};
      const dir = typeof args.dir_path === 'string' && args.dir_path !== '' ? args.dir_path : null;
      return {
        ...input,
        ...(dir === null ? {} : { cwd: cwd !== undefined && isAbsolute(cwd) ? resolve(cwd, dir) : dir }),
        tool_name: 'Bash',
        tool_input: {
          command: args.command,
          ...(typeof args.description === 'string' ? { description: args.description } : {}),
        },
      };
    }
    case 'read_file': {
      if (typeof args.file_path !== 'string') return {};
      return {
        ...input,
        tool_name: 'Read',
        tool_input: { file_path: resolvedAgainst(cwd, args.file_path) },
      };
    }
    default:
      return { ...input, tool_name: `${otherToolPrefix}${payload.tool_name}` };
  }
}

// The path as given when it is absolute or there is no absolute cwd to resolve it against.
function resolvedAgainst(cwd: string | undefined, path: string): string {
  return isAbsolute(path) || cwd === undefined || !isAbsolute(cwd) ? path : resolve(cwd, path);
}

/**
 * A verdict as Gemini CLI reads it: deny and refuse are `{"decision":"deny","reason":…}` at exit 0.
 * Never `ask`: a headless Gemini CLI waits for an answer no one can give.
 */
export function encodeGeminiVerdict(verdict: Verdict): ReturnType<typeof encodeJsonBlock> {
  return encodeJsonBlock(verdict, 'gemini', (reason) => ({ decision: 'deny', reason }));
}

/** True when a hook's stdout is the deny Gemini CLI acts on. */
export function isGeminiDeny(stdout: string): boolean {
  const reply = parseReply(stdout);
  return (
    reply !== null &&
    (reply.decision === 'deny' || reply.decision === 'block') &&
    typeof reply.reason === 'string' &&
    reply.reason !== ''
  );
}

/**
 * A kit call (a Claude-shaped Bash or Read payload) as Gemini CLI sends it, for doctor and tests;
 * null for any other call. A sub-agent's call looks like the main thread's: Gemini marks neither.
 */
export function geminiPayloadOf(input: HookInput): JsonObject | null {
  const bash = bashInput(input);
  const read = readInput(input);
  const toolCall =
    bash !== null
      ? { tool_name: 'run_shell_command', tool_input: { command: bash.command } }
      : read !== null
        ? { tool_name: 'read_file', tool_input: { file_path: read.file_path } }
        : null;
  if (toolCall === null) return null;
  return {
    ...(input.session_id === undefined ? {} : { session_id: input.session_id }),
    ...(input.cwd === undefined ? {} : { cwd: input.cwd }),
    hook_event_name: 'BeforeTool',
    timestamp: new Date(0).toISOString(),
    ...toolCall,
  };
}

/** Gemini CLI's protocol for fail-open's runHook: `runHook(evaluate, { guard, protocol: geminiCli })`. */
export const geminiCli: HookProtocol<HookInput, Verdict, Verdict['kind']> = {
  readInput: readGeminiInput,
  toolOf: (input) => input.tool_name ?? null,
  encode: encodeGeminiVerdict,
};
