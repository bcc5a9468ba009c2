import { afterEach, describe, expect, test } from 'vitest';
import { type MessagesApi, startMessagesApi, type ToolCall } from '../src/messages-api.ts';

// The stand-in on its own, without the CLI: the turn it plays is read from the conversation, and
// the tool_results it records are the ones the client sent.

const bash = (command: string): ToolCall => ({ name: 'Bash', input: { command } });
const tools = [{ name: 'Bash' }, { name: 'Read' }];
let api: MessagesApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

interface SseEvent {
  event: string;
  data: Record<string, unknown>;
}

async function post(body: unknown, path = '/v1/messages?beta=true'): Promise<SseEvent[]> {
  const response = await fetch(`${api?.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return text
    .split('\n\n')
    .filter((chunk) => chunk.trim() !== '')
    .map((chunk) => {
      const [eventLine, dataLine] = chunk.split('\n');
      return {
        event: eventLine?.replace(/^event: /, '') ?? '',
        data: JSON.parse(dataLine?.replace(/^data: /, '') ?? '{}'),
      };
    });
}

function contentBlockOf(events: SseEvent[]): { type: string; id: string; name: string } {
  const start = events.find((e) => e.event === 'content_block_start');
  if (!start) throw new Error(`no content_block_start in ${JSON.stringify(events)}`);
  return start.data.content_block as { type: string; id: string; name: string };
}

const toolUse = (id: string, call: ToolCall) => ({
  role: 'assistant',
  content: [{ type: 'tool_use', id, name: call.name, input: call.input }],
});
const toolResult = (id: string, content: string, isError: boolean) => ({
  role: 'user',
  content: [{ type: 'tool_result', tool_use_id: id, content, is_error: isError }],
});

describe('the Messages API stand-in', () => {
  test('plays one tool call per turn, in the documented event order, then ends with text', async () => {
    const script = [bash('make test | tail -5'), bash('touch ran.txt')];
    api = await startMessagesApi(script);
    const first = await post({ stream: true, tools, messages: [{ role: 'user', content: 'go' }] });
    expect(first.map((e) => e.event)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    const block = contentBlockOf(first);
    expect(block).toMatchObject({ type: 'tool_use', name: 'Bash' });
    expect(first[2]?.data.delta).toEqual({
      type: 'input_json_delta',
      partial_json: JSON.stringify(script[0]?.input),
    });
    expect(first[4]?.data.delta).toMatchObject({ stop_reason: 'tool_use' });

    const history = [
      { role: 'user', content: 'go' },
      toolUse(block.id, script[0] as ToolCall),
      toolResult(block.id, 'PreToolUse:Bash hook error: denied', true),
    ];
    const second = await post({ stream: true, tools, messages: history });
    expect(second[1]?.data.content_block).toMatchObject({ type: 'tool_use', name: 'Bash' });
    expect(second[2]?.data.delta).toMatchObject({ partial_json: JSON.stringify(script[1]?.input) });

    const id2 = contentBlockOf(second).id;
    const done = await post({
      stream: true,
      tools,
      messages: [...history, toolUse(id2, script[1] as ToolCall), toolResult(id2, 'ok', false)],
    });
    expect(done[1]?.data.content_block).toMatchObject({ type: 'text' });
    expect(done[4]?.data.delta).toMatchObject({ stop_reason: 'end_turn' });

    expect(api.toolResults()).toEqual([
      {
        toolUseId: block.id,
        toolName: 'Bash',
        input: script[0]?.input,
        isError: true,
        text: 'PreToolUse:Bash hook error: denied',
      },
      { toolUseId: id2, toolName: 'Bash', input: script[1]?.input, isError: false, text: 'ok' },
    ]);
  });

  test('a request that offers no tools (a side query) gets text, and does not use up a turn', async () => {
    api = await startMessagesApi([bash('git status')]);
    const side = await post({ stream: true, messages: [{ role: 'user', content: 'title?' }] });
    expect(side[1]?.data.content_block).toMatchObject({ type: 'text' });
    const main = await post({ stream: true, tools, messages: [{ role: 'user', content: 'go' }] });
    expect(main[1]?.data.content_block).toMatchObject({ type: 'tool_use', name: 'Bash' });
  });

  test('other endpoints are answered and logged, never left hanging', async () => {
    api = await startMessagesApi([]);
    const response = await fetch(`${api.url}/api/anything`, { method: 'GET' });
    expect(response.status).toBe(200);
    expect(api.otherRequests().map((r) => `${r.method} ${r.url}`)).toEqual(['GET /api/anything']);
  });
});
