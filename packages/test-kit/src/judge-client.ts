import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { hookNode } from './hook-process.ts';

/** What the judge answered one tools/call with: the text the host reads as the hook's stdout, and isError. */
export interface JudgeAnswer {
  text: string; // every text content joined; '' for an empty content
  isError: boolean;
}

/** A running MCP judge spoken to over stdio, as Claude Code speaks to it. */
export interface JudgeClient {
  /** The server process's pid (for RSS and kill). */
  pid: number;
  /** Sends a JSON-RPC request and resolves with its whole reply (result or error). */
  request: (method: string, params?: unknown) => Promise<Record<string, unknown>>;
  /** Calls the hidden `judge` tool with a handler's filled `input`. */
  judge: (args: unknown) => Promise<JudgeAnswer>;
  /** Closes stdin and resolves with the exit code once the server has exited. */
  close: () => Promise<number | null>;
  process: ChildProcessWithoutNullStreams;
}

/** Options of startJudge. */
export interface StartJudgeOptions {
  env: Record<string, string | undefined>;
  cwd?: string;
  nodeArgs?: string[]; // before the server's file, as a handler's args put them
}

/**
 * Starts a judge server (`node <mcp.cjs> <judge modules...>`) and makes the client's opening moves
 * the way Claude Code 2.1.332 does: `server/discover` (which the judge refuses), then `initialize`
 * and `notifications/initialized`. Resolves once initialize is answered.
 */
export async function startJudge(
  server: string,
  modules: readonly string[],
  options: StartJudgeOptions,
): Promise<JudgeClient> {
  const child = spawn(hookNode(), [...(options.nodeArgs ?? []), server, ...modules], {
    env: options.env,
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const waiting = new Map<number, (reply: Record<string, unknown>) => void>();
  createInterface({ input: child.stdout }).on('line', (line) => {
    const reply = JSON.parse(line) as Record<string, unknown>;
    const resolve = waiting.get(reply.id as number);
    waiting.delete(reply.id as number);
    resolve?.(reply);
  });
  let nextId = 0;
  const request = (method: string, params: unknown = {}): Promise<Record<string, unknown>> => {
    const id = nextId++;
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    return new Promise((resolve) => waiting.set(id, resolve));
  };
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  await request('server/discover', { protocolVersion: '2026-07-28' });
  await request('initialize', {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'kit-test', version: '0' },
  });
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  return {
    pid: child.pid ?? -1,
    request,
    judge: async (args) => answerOf(await request('tools/call', { name: 'judge', arguments: args })),
    close: () => {
      child.stdin.end();
      return exited;
    },
    process: child,
  };
}

function answerOf(reply: Record<string, unknown>): JudgeAnswer {
  const result = reply.result as
    | { content?: { type: string; text?: string }[]; isError?: boolean }
    | undefined;
  if (result === undefined) throw new Error(`the judge answered with no result: ${JSON.stringify(reply)}`);
  const text = (result.content ?? []).map((part) => part.text ?? '').join('');
  return { text, isError: result.isError === true };
}

/**
 * What the host puts in an `mcp_tool` handler's `input`: each `${field}` (or `${a.b}`) replaced by
 * the payload's value, a string as is, anything else as JSON, a missing one as "" (as Claude Code
 * 2.1.332 does), inside strings, objects and arrays.
 */
export function fillTemplate(template: unknown, payload: Record<string, unknown>): unknown {
  if (typeof template === 'string') {
    return template.replace(/\$\{([A-Za-z_][\w.]*)\}/g, (_whole, path: string) => {
      const value = path
        .split('.')
        .reduce<unknown>((at, key) => (at as Record<string, unknown> | null)?.[key], payload);
      if (value === undefined || value === null) return '';
      return typeof value === 'string' ? value : JSON.stringify(value);
    });
  }
  if (Array.isArray(template)) return template.map((item) => fillTemplate(item, payload));
  if (typeof template === 'object' && template !== null) {
    return Object.fromEntries(
      Object.entries(template).map(([key, value]) => [key, fillTemplate(value, payload)]),
    );
  }
  return template;
}
