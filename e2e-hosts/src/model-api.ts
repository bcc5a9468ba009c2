import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onRequestBody } from '@kit/e2e/src/request-body.ts';

/** One scripted model turn: a shell command the "model" asks the CLI to run, or a file it asks it to read. */
export type ShellStep = { shell: string } | { read: string }; // make test | tail -5; /repo/src/Widget.cs

/** A request the CLI made to the stand-in, kept whole. */
export interface RecordedRequest {
  method: string;
  url: string;
  body: unknown; // parsed JSON, or the raw text
  answer: 'tool_call' | 'text' | 'other';
}

/** One call the model made and what the CLI handed back for it, read from a later request. */
export interface ToolExchange {
  callId: string;
  command: string; // the shell command, or the path of a read
  output: string; // the text the model got back (a deny reason, the command's output, the file)
}

/** How one model API reads and answers: the three hosts speak three different ones. */
export interface ModelDialect {
  name: string;
  /** True for the request that asks the model for its next turn (the others are logged, answered by `other`). */
  isTurn: (method: string, path: string) => boolean;
  /** How many tool calls the conversation in this request already holds: the script's position. */
  callsMade: (body: unknown) => number;
  /** True when the request offers the tool the step needs (a side query without tools gets text). */
  offers: (body: unknown, step: ShellStep) => boolean;
  /** Writes the answer: the step as this API's tool call, or the final text when `step` is null. */
  answer: (res: ServerResponse, body: unknown, step: ShellStep | null, id: number) => void;
  /** Answers a request that is not a turn (a model list, a token count). */
  other: (res: ServerResponse, method: string, path: string) => void;
  /** The shell calls and their outputs that a request's conversation holds. */
  exchanges: (body: unknown) => ToolExchange[];
}

/** The stand-in one CLI run talks to. */
export interface ModelApi {
  url: string; // http://127.0.0.1:<port>
  requests: RecordedRequest[];
  /** Every shell call the model made, with what the CLI handed back, in order (the last request holds them all). */
  exchanges(): ToolExchange[];
  close(): Promise<void>;
}

export const finalText = 'Done.';

/**
 * Starts a loopback server that plays `script` one shell call per turn in `dialect`, then the
 * final text, and records every request. The turn is read from the conversation (the calls it
 * already holds), not from a counter, so a retried request gets the same answer.
 */
export async function startModelApi(dialect: ModelDialect, script: ShellStep[]): Promise<ModelApi> {
  const requests: RecordedRequest[] = [];
  let counter = 0;
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    onRequestBody(req, (body) => {
      const method = req.method ?? '';
      const path = (req.url ?? '').split('?')[0] ?? '';
      try {
        if (dialect.isTurn(method, path)) {
          const next = script[dialect.callsMade(body)];
          const step = next !== undefined && dialect.offers(body, next) ? next : null;
          requests.push({ method, url: req.url ?? '', body, answer: step ? 'tool_call' : 'text' });
          dialect.answer(res, body, step, ++counter);
        } else {
          requests.push({ method, url: req.url ?? '', body, answer: 'other' });
          dialect.other(res, method, path);
        }
      } catch (error) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: String(error) } }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    exchanges: () => {
      const byId = new Map<string, ToolExchange>();
      for (const request of requests)
        if (request.answer !== 'other')
          for (const exchange of dialect.exchanges(request.body))
            if (!byId.has(exchange.callId)) byId.set(exchange.callId, exchange);
      return [...byId.values()];
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Writes one Server-Sent Events body. */
export function writeEvents(res: ServerResponse, events: string[]): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const event of events) res.write(event);
  res.end();
}

/** The body as an object with the given array field, or an empty array. */
export function arrayField(body: unknown, field: string): Record<string, unknown>[] {
  const value = (body as Record<string, unknown> | null)?.[field];
  return Array.isArray(value) ? (value as Record<string, unknown>[]) : [];
}
