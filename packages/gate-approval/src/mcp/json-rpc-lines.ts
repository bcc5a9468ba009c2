import { createInterface } from 'node:readline';
import { isJsonObject, type JsonObject } from '@kit/fail-open';

/** A JSON-RPC 2.0 message as MCP's stdio transport carries it: one JSON object per line. */
export interface RpcMessage {
  id?: string | number | null;
  method?: string;
  params?: JsonObject;
}

/** An error answer: its code and message. */
export interface RpcError {
  code: number;
  message: string;
}

/** What a request's handler answers: a result, or an error. */
export type RpcAnswer = { result: JsonObject } | { error: RpcError };

/** Codes the judge answers with. */
export const rpcErrors = {
  parse: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
} as const;

/** Told after each answer is written: the request's method and its service time in ms (its line read to its answer written). */
export type OnAnswered = (method: string | undefined, ms: number) => void;

/**
 * Reads newline-delimited JSON-RPC from `input` and writes each request's answer as one line on
 * `output`, in the order the answers are ready. A notification (no `id`) is handed to the handler
 * and never answered. Resolves when `input` ends.
 */
export function serveLines(
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
  handle: (message: RpcMessage) => Promise<RpcAnswer | null>,
  onAnswered?: OnAnswered,
): Promise<void> {
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  const pending = new Set<Promise<void>>();
  lines.on('line', (line) => {
    if (line.trim() === '') return;
    const arrived = process.hrtime.bigint();
    const answered = answer(line, handle).then((reply) => {
      if (reply === null) return;
      output.write(`${JSON.stringify(reply)}\n`);
      if (onAnswered === undefined) return;
      const ms = Number(process.hrtime.bigint() - arrived) / 1e6;
      onAnswered(methodOf(line), ms);
    });
    pending.add(answered);
    void answered.finally(() => pending.delete(answered));
  });
  return new Promise((resolve) => {
    lines.on('close', () => {
      void Promise.all(pending).then(() => resolve());
    });
  });
}

async function answer(
  line: string,
  handle: (message: RpcMessage) => Promise<RpcAnswer | null>,
): Promise<JsonObject | null> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return reply(null, { error: { code: rpcErrors.parse, message: 'not JSON' } });
  }
  if (!isJsonObject(parsed)) {
    return reply(null, { error: { code: rpcErrors.invalidRequest, message: 'not a JSON-RPC object' } });
  }
  const message = parsed as RpcMessage;
  const id = message.id;
  const isRequest = typeof id === 'string' || typeof id === 'number';
  let answered: RpcAnswer | null;
  try {
    answered = await handle(message);
  } catch (error) {
    answered = { error: { code: -32603, message: error instanceof Error ? error.message : String(error) } };
  }
  return isRequest && answered !== null ? reply(id, answered) : null;
}

/** The method a request line names, read again only when someone asks for service times. */
function methodOf(line: string): string | undefined {
  try {
    const method: unknown = (JSON.parse(line) as { method?: unknown }).method;
    return typeof method === 'string' ? method : undefined;
  } catch {
    return undefined;
  }
}

function reply(id: string | number | null, answered: RpcAnswer): JsonObject {
  return { jsonrpc: '2.0', id, ...answered };
}
