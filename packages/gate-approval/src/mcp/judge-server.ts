import type { HookOutput, JsonObject } from '@kit/fail-open';
import { isJsonObject } from '@kit/fail-open';
import { encodeVerdict } from '../hosts/claude-code.ts';
import { monitorFlag } from '../monitor.ts';
import { strictFlag } from '../strict-arg.ts';
import { type OnAnswered, type RpcAnswer, type RpcMessage, rpcErrors, serveLines } from './json-rpc-lines.ts';
import type { JudgeModules } from './judge-modules.ts';
import { memoryKeeper } from './memory-keeper.ts';
import { payloadFromArguments } from './payload-template.ts';

/** The one tool the judge answers; it is never listed, so the model never sees it. */
export const judgeToolName = 'judge';

/** The protocol version answered when the client asks for none it names. */
const defaultProtocolVersion = '2025-11-25';
/** serverInfo.version: the judge tool's own contract (its arguments and answers), not a package version. */
const judgeContractVersion = '1';

/** Where the judge reads and writes, and what it judges with. */
export interface JudgeServerOptions {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  modules: JudgeModules;
  /** The environment each call is judged in: the session's, read at the call (default process.env). */
  env?: () => Record<string, string | undefined>;
  /** The judge module of a call that names its plugin (`plugin`) and no module: the judge plugin's discovery. */
  locate?: (plugin: string, guard: string) => string | undefined;
  /** Told each time a call's guard cannot be served (what the session's notice reports). */
  onProblem?: (text: string) => void;
  /** Told when the client says the connection is up (`notifications/initialized`), once per notice. */
  onConnected?: () => void;
  /** Told each answer's service time (the bench's record: service-times.ts); never changes an answer. */
  onAnswered?: OnAnswered | undefined;
}

/**
 * The MCP judge: a stdio MCP server whose hidden `judge` tool answers an `mcp_tool` PreToolUse
 * handler with exactly the text the guard's command hook would print for the same call. It answers
 * `initialize` at once and loads the guards (and mvdan-sh) right after, so the host's start-up
 * wait is short. Resolves when the host closes its end.
 */
export function serveJudge(options: JudgeServerOptions): Promise<void> {
  const env = options.env ?? (() => process.env);
  let loaded = false;
  const loadOnce = (): void => {
    if (loaded) return;
    loaded = true;
    options.modules.loadStarted();
  };
  const afterCall = memoryKeeper();
  return serveLines(
    options.input,
    options.output,
    async (message) => {
      const answer = await dispatch(message, options, env, loadOnce);
      if (message.method === 'initialize') setImmediate(loadOnce);
      if (message.method === 'notifications/initialized') options.onConnected?.();
      if (message.method === 'tools/call') afterCall();
      return answer;
    },
    options.onAnswered,
  );
}

async function dispatch(
  message: RpcMessage,
  options: JudgeServerOptions,
  env: () => Record<string, string | undefined>,
  loadOnce: () => void,
): Promise<RpcAnswer | null> {
  const params = isJsonObject(message.params) ? message.params : {};
  switch (message.method) {
    case 'initialize':
      return { result: initializeResult(params) };
    case 'ping':
      return { result: {} };
    case 'tools/list':
      return { result: { tools: [] } };
    case 'tools/call':
      loadOnce();
      return { result: await callResult(params, options, env()) };
    default:
      // server/discover included: its error makes the client fall back to initialize.
      return message.id === undefined
        ? null
        : { error: { code: rpcErrors.methodNotFound, message: `no method ${String(message.method)}` } };
  }
}

function initializeResult(params: JsonObject): JsonObject {
  const asked = params.protocolVersion;
  return {
    protocolVersion: typeof asked === 'string' ? asked : defaultProtocolVersion,
    capabilities: { tools: {} },
    serverInfo: { name: 'kit-judge', version: judgeContractVersion },
  };
}

async function callResult(
  params: JsonObject,
  options: JudgeServerOptions,
  env: Record<string, string | undefined>,
): Promise<JsonObject> {
  const args = isJsonObject(params.arguments) ? params.arguments : {};
  if (params.name !== judgeToolName) return failed(`no tool ${String(params.name)}`);
  if (typeof args.guard !== 'string') return failed('the call names no guard');
  const found = options.modules.find(args.guard, moduleOfCall(args, args.guard, options.locate));
  if (!('judge' in found)) {
    const problem = `${args.guard} could not be loaded from ${found.module}: ${found.message}`;
    options.onProblem?.(problem);
    return failed(problem);
  }
  const payload = payloadFromArguments(args.payload);
  if (payload === null) return failed('the call carries no payload object');
  return asToolResult(await found.judge(JSON.stringify(payload), env, bundleArguments(args)));
}

/** The module a call names (`module`), else the one its plugin's install holds (`plugin`), else none: the guard's started module. */
function moduleOfCall(
  args: JsonObject,
  guard: string,
  locate: JudgeServerOptions['locate'],
): string | undefined {
  if (typeof args.module === 'string') return args.module;
  if (typeof args.plugin === 'string' && locate !== undefined) return locate(args.plugin, guard);
  return undefined;
}

/**
 * The bundle arguments a handler asks for in its input, as a command hook's handler names them after
 * the bundle: `"strict": true` (the git-write-gate-strict plugin's handler) is `--strict`, the strict
 * switch on whatever the session has; `"monitor": true` (a monitor plugin's) is `--monitor`, judged
 * and recorded, never told to the host.
 */
function bundleArguments(args: JsonObject): string[] {
  return [...(args.strict === true ? [strictFlag] : []), ...(args.monitor === true ? [monitorFlag] : [])];
}

/**
 * A command hook's output as the tool's answer. The host reads the text as the hook's stdout: a
 * deny's JSON denies, an empty answer is no opinion. A refusal (a strict guard's exit 2, the reason
 * on stderr) has no stdout form, and an isError answer would lose its reason (Claude Code 2.1.332
 * tells the model only that the MCP tool failed): it is answered as a deny carrying the reason, so
 * it blocks on every handler, as exit 2 blocks every command hook, and the model reads why.
 */
export function asToolResult(output: HookOutput): JsonObject {
  if (output.exitCode === 2) {
    const refusal = encodeVerdict({ kind: 'deny', reason: output.stderr.trimEnd() });
    return { content: [{ type: 'text', text: refusal.stdout }] };
  }
  return { content: output.stdout === '' ? [] : [{ type: 'text', text: output.stdout }] };
}

function failed(text: string): JsonObject {
  return { content: [{ type: 'text', text }], isError: true };
}
