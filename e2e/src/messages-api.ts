import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onRequestBody } from './request-body.ts';

/** One scripted model turn: the tool the "model" calls and its input. */
export interface ToolCall {
  name: string; // 'Bash' | 'Read'
  input: Record<string, unknown>; // { command: 'make test | tail -5' }
}

/** A request the CLI made to the stand-in, kept whole so a test can read what the model was given. */
export interface RecordedRequest {
  method: string;
  url: string;
  body: unknown; // parsed JSON, or the raw text when it was not JSON
  answer: 'tool_use' | 'text' | 'other';
  at?: number; // performance.now() when the request's body was in (the host bench's gaps)
  answeredAt?: number; // performance.now() when its answer was sent whole
  toolUseId?: string; // the tool_use id it was answered with
}

/** What the model was handed back for one of its tool calls. */
export interface ToolResult {
  toolUseId: string;
  toolName: string;
  input: Record<string, unknown>;
  isError: boolean;
  text: string; // string content, or the text blocks of array content joined by newlines
}

/** The stand-in for the Messages API that one scenario talks to. */
export interface MessagesApi {
  url: string; // http://127.0.0.1:<port>
  requests: RecordedRequest[];
  /** Requests to endpoints other than POST /v1/messages (logged, answered with `{}`). */
  otherRequests(): RecordedRequest[];
  /** Every tool_result the CLI sent back, in order, paired with the call that asked for it. */
  toolResults(): ToolResult[];
  close(): Promise<void>;
}

interface MessageParam {
  role: string;
  content: string | ContentBlock[];
}
interface ContentBlock {
  type: string;
  id?: string;
  name?: string;
  input?: Record<string, unknown>;
  tool_use_id?: string;
  is_error?: boolean;
  content?: string | { type: string; text?: string }[];
  text?: string;
}
interface MessagesBody {
  model?: string;
  stream?: boolean;
  messages?: MessageParam[];
  tools?: { name?: string }[];
}

const FINAL_TEXT = 'Done.';

/**
 * Starts a loopback server that plays `script` one tool call per turn and records every request.
 *
 * The turn is read from the conversation, not from a counter: the number of `tool_use` blocks in the
 * assistant messages the CLI sent back is how many calls were already made, so a retry of the same
 * request gets the same answer. A request that offers no tools (a side query such as a title) gets text.
 */
export async function startMessagesApi(script: ToolCall[]): Promise<MessagesApi> {
  const requests: RecordedRequest[] = [];
  let toolUseCounter = 0;

  const server: Server = createServer((req, res) => {
    onRequestBody(req, (body) => {
      try {
        answer(req, res, body);
      } catch (error) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ type: 'error', error: { type: 'api_error', message: String(error) } }));
      }
    });
  });

  function answer(req: IncomingMessage, res: ServerResponse, body: unknown): void {
    const path = (req.url ?? '').split('?')[0];
    if (req.method === 'POST' && path === '/v1/messages') {
      const messagesBody = (body ?? {}) as MessagesBody;
      const call = nextCall(messagesBody);
      const toolUseId = call ? `toolu_e2e_${++toolUseCounter}` : '';
      const recorded: RecordedRequest = {
        method: req.method,
        url: req.url ?? '',
        body,
        answer: call ? 'tool_use' : 'text',
        at: performance.now(),
        ...(call ? { toolUseId } : {}),
      };
      requests.push(recorded);
      res.on('finish', () => {
        recorded.answeredAt = performance.now();
      });
      const model = messagesBody.model ?? 'claude-e2e';
      if (messagesBody.stream === false) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(wholeMessage(model, call, toolUseId)));
        return;
      }
      res.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache',
        connection: 'keep-alive',
      });
      for (const [event, data] of streamEvents(model, call, toolUseId)) {
        res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      }
      res.end();
      return;
    }
    requests.push({ method: req.method ?? '', url: req.url ?? '', body, answer: 'other' });
    if (req.method === 'POST' && path === '/v1/messages/count_tokens') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ input_tokens: 1 }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{}');
  }

  function nextCall(body: MessagesBody): ToolCall | null {
    const messages = body.messages ?? [];
    const offered = new Set((body.tools ?? []).map((tool) => tool.name));
    const made = messages
      .filter((message) => message.role === 'assistant' && Array.isArray(message.content))
      .flatMap((message) =>
        (message.content as ContentBlock[]).filter((block) => block.type === 'tool_use'),
      ).length;
    const call = script[made];
    if (!call || !offered.has(call.name)) return null;
    return call;
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    otherRequests: () => requests.filter((request) => request.answer === 'other'),
    toolResults: () => collectToolResults(requests),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function streamEvents(model: string, call: ToolCall | null, toolUseId: string): [string, unknown][] {
  const events: [string, unknown][] = [
    [
      'message_start',
      {
        type: 'message_start',
        message: {
          id: `msg_e2e_${Date.now()}`,
          type: 'message',
          role: 'assistant',
          model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 1, output_tokens: 1 },
        },
      },
    ],
  ];
  if (call) {
    events.push(
      [
        'content_block_start',
        {
          type: 'content_block_start',
          index: 0,
          content_block: { type: 'tool_use', id: toolUseId, name: call.name, input: {} },
        },
      ],
      [
        'content_block_delta',
        {
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'input_json_delta', partial_json: JSON.stringify(call.input) },
        },
      ],
    );
  } else {
    events.push(
      [
        'content_block_start',
        { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      ],
      [
        'content_block_delta',
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: FINAL_TEXT } },
      ],
    );
  }
  events.push(
    ['content_block_stop', { type: 'content_block_stop', index: 0 }],
    [
      'message_delta',
      {
        type: 'message_delta',
        delta: { stop_reason: call ? 'tool_use' : 'end_turn', stop_sequence: null },
        usage: { output_tokens: 1 },
      },
    ],
    ['message_stop', { type: 'message_stop' }],
  );
  return events;
}

function wholeMessage(model: string, call: ToolCall | null, toolUseId: string): unknown {
  return {
    id: `msg_e2e_${Date.now()}`,
    type: 'message',
    role: 'assistant',
    model,
    content: call
      ? [{ type: 'tool_use', id: toolUseId, name: call.name, input: call.input }]
      : [{ type: 'text', text: FINAL_TEXT }],
    stop_reason: call ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 1, output_tokens: 1 },
  };
}

// The CLI resends the whole conversation each turn, so the last tool-answering request holds every
// result; reading all of them and keeping the first sighting of each id stays right if it ever trims.
function collectToolResults(requests: RecordedRequest[]): ToolResult[] {
  const calls = new Map<string, { name: string; input: Record<string, unknown> }>();
  const results = new Map<string, ToolResult>();
  for (const request of requests) {
    if (request.answer === 'other') continue;
    const messages = ((request.body ?? {}) as MessagesBody).messages ?? [];
    for (const message of messages) {
      if (!Array.isArray(message.content)) continue;
      for (const block of message.content) {
        if (block.type === 'tool_use' && block.id) {
          calls.set(block.id, { name: block.name ?? '', input: block.input ?? {} });
        }
        if (block.type === 'tool_result' && block.tool_use_id && !results.has(block.tool_use_id)) {
          const call = calls.get(block.tool_use_id);
          results.set(block.tool_use_id, {
            toolUseId: block.tool_use_id,
            toolName: call?.name ?? '',
            input: call?.input ?? {},
            isError: block.is_error === true,
            text: textOf(block.content),
          });
        }
      }
    }
  }
  return [...results.values()];
}

function textOf(content: ContentBlock['content']): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((part) => part.type === 'text' && typeof part.text === 'string')
    .map((part) => part.text)
    .join('\n');
}
