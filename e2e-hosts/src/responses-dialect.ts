import { arrayField, finalText, type ModelDialect, type ToolExchange, writeEvents } from './model-api.ts';

// The OpenAI Responses API as Codex CLI 0.171.0 calls it (`wire_api = "responses"`): POST
// /v1/responses, answered with SSE `event:`/`data:` pairs; a shell call is a `function_call` of
// `exec_command` with `{"cmd": …}` arguments, its result a `function_call_output` in the next request.

/** Codex CLI's model API. */
export const responsesDialect: ModelDialect = {
  name: 'responses',
  isTurn: (method, path) => method === 'POST' && path.endsWith('/responses'),
  callsMade: (body) => arrayField(body, 'input').filter((item) => item.type === 'function_call').length,
  // Codex has no file-read tool: a read step is never offered.
  offers: (body, step) =>
    'shell' in step && arrayField(body, 'tools').some((tool) => tool.name === 'exec_command'),
  answer: (res, body, step, id) => {
    const model = (body as { model?: string } | null)?.model ?? 'e2e';
    const item = step
      ? {
          type: 'function_call',
          id: `fc_${id}`,
          call_id: `call_e2e_${id}`,
          name: 'exec_command',
          arguments: JSON.stringify({ cmd: 'shell' in step ? step.shell : '' }),
          status: 'completed',
        }
      : {
          type: 'message',
          id: `msg_${id}`,
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: finalText, annotations: [] }],
        };
    const response = { id: `resp_${id}`, object: 'response', model };
    const usage = {
      input_tokens: 1,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 1,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 2,
    };
    const events = [
      { type: 'response.created', response: { ...response, status: 'in_progress' } },
      { type: 'response.output_item.added', output_index: 0, item: { ...item, status: 'in_progress' } },
      { type: 'response.output_item.done', output_index: 0, item },
      { type: 'response.completed', response: { ...response, status: 'completed', output: [item], usage } },
    ];
    writeEvents(
      res,
      events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`),
    );
  },
  other: (res) => {
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end('{"error":{"message":"not here"}}');
  },
  exchanges: (body) => {
    const input = arrayField(body, 'input');
    const outputs = new Map(
      input
        .filter((item) => item.type === 'function_call_output')
        .map((item) => [
          String(item.call_id),
          typeof item.output === 'string' ? item.output : JSON.stringify(item.output),
        ]),
    );
    return input.flatMap((item): ToolExchange[] => {
      if (item.type !== 'function_call' || !outputs.has(String(item.call_id))) return [];
      const args = JSON.parse(String(item.arguments ?? '{}')) as { cmd?: string };
      return [
        {
          callId: String(item.call_id),
          command: args.cmd ?? '',
          output: outputs.get(String(item.call_id)) ?? '',
        },
      ];
    });
  },
};
