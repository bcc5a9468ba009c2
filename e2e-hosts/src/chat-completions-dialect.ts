import { arrayField, finalText, type ModelDialect, type ToolExchange, writeEvents } from './model-api.ts';

// The OpenAI Chat Completions API as Copilot CLI 1.0.102 calls it in BYOK mode
// (COPILOT_PROVIDER_WIRE_API=completions): POST /v1/chat/completions with `stream: true`, answered
// with `data:` chunks and `data: [DONE]`; a shell call is a `tool_calls` entry of `bash`, its result a
// `role: "tool"` message in the next request.

/** Copilot CLI's model API. */
export const chatCompletionsDialect: ModelDialect = {
  name: 'chat-completions',
  isTurn: (method, path) => method === 'POST' && path.endsWith('/chat/completions'),
  callsMade: (body) =>
    arrayField(body, 'messages')
      .filter((message) => message.role === 'assistant')
      .flatMap((message) => (Array.isArray(message.tool_calls) ? message.tool_calls : [])).length,
  offers: (body, step) =>
    arrayField(body, 'tools').some(
      (tool) =>
        (tool.function as { name?: string } | undefined)?.name === ('shell' in step ? 'bash' : 'view'),
    ),
  answer: (res, body, step, id) => {
    const model = (body as { model?: string } | null)?.model ?? 'e2e';
    const created = Math.floor(Date.now() / 1000);
    const chunk = (delta: object, finish: string | null = null, extra: object = {}) =>
      `data: ${JSON.stringify({ id: `chatcmpl-${id}`, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
    const call = step && {
      index: 0,
      id: `call_e2e_${id}`,
      type: 'function',
      function:
        'shell' in step
          ? { name: 'bash', arguments: JSON.stringify({ command: step.shell, description: 'the next step' }) }
          : { name: 'view', arguments: JSON.stringify({ path: step.read }) },
    };
    writeEvents(res, [
      chunk({ role: 'assistant', content: call ? null : '' }),
      call ? chunk({ tool_calls: [call] }) : chunk({ content: finalText }),
      chunk({}, call ? 'tool_calls' : 'stop', {
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      }),
      'data: [DONE]\n\n',
    ]);
  },
  other: (res, method, path) => {
    if (method === 'GET' && path.endsWith('/models')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"object":"list","data":[]}');
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end('{"error":{"message":"not here"}}');
  },
  exchanges: (body) => {
    const messages = arrayField(body, 'messages');
    const results = new Map(
      messages
        .filter((message) => message.role === 'tool')
        .map((message) => [
          String(message.tool_call_id),
          typeof message.content === 'string' ? message.content : JSON.stringify(message.content),
        ]),
    );
    return messages
      .filter((message) => message.role === 'assistant')
      .flatMap((message) =>
        Array.isArray(message.tool_calls) ? (message.tool_calls as Record<string, unknown>[]) : [],
      )
      .flatMap((call): ToolExchange[] => {
        const id = String(call.id);
        if (!results.has(id)) return [];
        const args = JSON.parse(String((call.function as { arguments?: string }).arguments ?? '{}')) as {
          command?: string;
          path?: string;
        };
        return [{ callId: id, command: args.command ?? args.path ?? '', output: results.get(id) ?? '' }];
      });
  },
};
