import { existsSync, readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { tempDir } from '@kit/test-kit';
import { describe, expect, test } from 'vitest';
import { JudgeModules } from '../src/mcp/judge-modules.ts';
import { type JudgeServerOptions, serveJudge } from '../src/mcp/judge-server.ts';
import { judgeInput, payloadFromArguments } from '../src/mcp/payload-template.ts';
import { serviceTimes, serviceTimesVariable } from '../src/mcp/service-times.ts';

const fixture = (name: string) => fileURLToPath(new URL(`fixtures/judges/${name}`, import.meta.url));

/** Sends JSON-RPC lines to a judge serving `modules`, and returns its answers by id once stdin ends. */
async function exchange(
  modules: string[] | JudgeModules,
  messages: object[],
  options: Pick<JudgeServerOptions, 'env' | 'locate' | 'onConnected' | 'onProblem' | 'onAnswered'> = {},
): Promise<Map<unknown, Record<string, unknown>>> {
  const input = new PassThrough();
  const output = new PassThrough();
  const chunks: Buffer[] = [];
  output.on('data', (chunk: Buffer) => chunks.push(chunk));
  const served = serveJudge({
    input,
    output,
    modules: Array.isArray(modules) ? new JudgeModules(modules) : modules,
    env: () => ({}),
    ...options,
  });
  for (const message of messages) input.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  input.write('not json\n');
  input.end();
  await served;
  const replies = Buffer.concat(chunks).toString('utf8').trimEnd().split('\n');
  return new Map(replies.map((line) => JSON.parse(line)).map((reply) => [reply.id, reply]));
}

const call = (id: number, command: string, extra: object = {}) => ({
  id,
  method: 'tools/call',
  params: {
    name: 'judge',
    arguments: {
      ...judgeInput('stub-guard'),
      payload: { tool_name: 'Bash', tool_input: JSON.stringify({ command }) },
      ...extra,
    },
  },
});

describe('the judge server', () => {
  test('the opening: discover refused, initialize answered with the asked version, no tools, notifications unanswered', async () => {
    const replies = await exchange(
      [fixture('stub-judge.cjs')],
      [
        { id: 1, method: 'server/discover', params: {} },
        { id: 2, method: 'initialize', params: { protocolVersion: '2025-11-25' } },
        { method: 'notifications/initialized' },
        { id: 3, method: 'tools/list' },
        { id: 4, method: 'ping' },
      ],
    );
    expect(replies.get(1)?.error).toMatchObject({ code: -32601 });
    expect(replies.get(2)?.result).toMatchObject({
      protocolVersion: '2025-11-25',
      capabilities: { tools: {} },
    });
    expect(replies.get(3)?.result).toEqual({ tools: [] });
    expect(replies.get(4)?.result).toEqual({});
    expect(replies.get(null)?.error).toMatchObject({ code: -32700 }); // the line that is not JSON
    expect(replies.size).toBe(5);
  });

  test.for([
    [
      'a deny is its stdout as the text',
      call(1, 'deny'),
      { content: [{ type: 'text', text: '{"deny":true}\n' }] },
    ],
    ['no opinion is an empty content', call(1, 'ls'), { content: [] }],
    [
      'a refusal is a deny carrying the reason (an isError answer would hide it from the model)',
      call(1, 'refuse'),
      {
        content: [
          {
            type: 'text',
            text: '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"stub-guard: refused"}}\n',
          },
        ],
      },
    ],
  ] as const)('%s', async ([, message, want]) => {
    const replies = await exchange([fixture('stub-judge.cjs')], [message]);
    expect(replies.get(1)?.result).toEqual(want);
  });

  test.for([
    [
      'an unknown guard',
      [fixture('stub-judge.cjs')],
      call(1, 'deny', { guard: 'other-guard' }),
      /no judge module for other-guard/,
    ],
    ['a module that exports no judge', [fixture('not-a-judge.cjs')], call(1, 'deny'), /exports no `judge`/],
    ['a module that is not there', [fixture('missing.cjs')], call(1, 'deny'), /Cannot find module/],
    ['a relative module path', [], call(1, 'deny', { module: 'stub-judge.cjs' }), /absolute path/],
    [
      'another tool',
      [fixture('stub-judge.cjs')],
      { id: 1, method: 'tools/call', params: { name: 'other' } },
      /no tool other/,
    ],
    ['no payload', [fixture('stub-judge.cjs')], call(1, 'deny', { payload: 'x' }), /no payload object/],
  ] as const)(
    '%s is an error answer (fail-open handlers let the call run, strict ones block)',
    async ([, modules, message, text]) => {
      const replies = await exchange([...modules], [message]);
      const result = replies.get(1)?.result as { isError: boolean; content: { text: string }[] };
      expect(result.isError).toBe(true);
      expect(result.content[0]?.text).toMatch(text);
    },
  );

  test('a module named by its path is loaded for the call, and must serve the guard named', async () => {
    const replies = await exchange(
      [],
      [
        call(1, 'deny', { module: fixture('stub-judge.cjs') }),
        call(2, 'deny', { module: fixture('stub-judge.cjs'), guard: 'other-guard' }),
      ],
    );
    expect(replies.get(1)?.result).toEqual({ content: [{ type: 'text', text: '{"deny":true}\n' }] });
    expect(JSON.stringify(replies.get(2)?.result)).toContain('the module serves stub-guard, not other-guard');
  });
});

describe("a plugin handler's call: the strict switch and the plugin's module", () => {
  const textOf = (reply: Record<string, unknown> | undefined) =>
    (reply?.result as { content: { text: string }[] } | undefined)?.content[0]?.text;

  test.for([
    [
      '"strict": true asks for --strict (the switch on over the session\'s)',
      { strict: true },
      { TAGOUT_HOOKS_STRICT: '0' },
      'TAGOUT_HOOKS_STRICT=0 argv=--strict',
    ],
    [
      '"monitor": true asks for --monitor',
      { monitor: true },
      {},
      'TAGOUT_HOOKS_STRICT=undefined argv=--monitor',
    ],
    [
      "no strict field keeps the session's switch",
      {},
      { TAGOUT_HOOKS_STRICT: '0' },
      'TAGOUT_HOOKS_STRICT=0 argv=',
    ],
    ['no strict field, none in the session: unset', {}, {}, 'TAGOUT_HOOKS_STRICT=undefined argv='],
    [
      '"strict": "true" (not the boolean) asks for nothing',
      { strict: 'true' },
      {},
      'TAGOUT_HOOKS_STRICT=undefined argv=',
    ],
  ] as const)('%s', async ([, extra, sessionEnv, want]) => {
    const replies = await exchange([fixture('stub-judge.cjs')], [call(1, 'strict?', extra)], {
      env: () => ({ ...sessionEnv }),
    });
    expect(textOf(replies.get(1))).toBe(want);
  });

  test('a call naming its plugin is judged by the module the judge locates for it; an unlocated one falls back to the started modules', async () => {
    const asked: string[] = [];
    const locate = (plugin: string, guard: string) => {
      asked.push(`${plugin}/${guard}`);
      return plugin === 'stub-plugin' ? fixture('stub-judge.cjs') : undefined;
    };
    const replies = await exchange(
      [],
      [call(1, 'deny', { plugin: 'stub-plugin' }), call(2, 'deny', { plugin: 'other-plugin' })],
      { locate },
    );
    expect(replies.get(1)?.result).toEqual({ content: [{ type: 'text', text: '{"deny":true}\n' }] });
    expect(textOf(replies.get(2))).toMatch(/no judge module for stub-guard/);
    expect(asked.sort()).toEqual(['other-plugin/stub-guard', 'stub-plugin/stub-guard']);
  });
});

describe('what the judge loads: the guards enabled at start, any other at its first call', () => {
  const initialize = { id: 0, method: 'initialize', params: {} };
  test.for([
    ['an enabled guard (named at start) is loaded after initialize', [fixture('stub-judge.cjs')], [], 1],
    ['a guard not enabled at start is not loaded', [], [], 0],
    [
      'a guard enabled mid-session is loaded at its first call, once',
      [],
      [call(1, 'deny', { plugin: 'stub-plugin' }), call(2, 'deny', { plugin: 'stub-plugin' })],
      1,
    ],
  ] as const)('%s', async ([, started, calls, loads]) => {
    const loaded: string[] = [];
    const modules = new JudgeModules(started, (module) => loaded.push(module));
    const replies = await exchange(modules, [initialize, ...calls], {
      locate: () => fixture('stub-judge.cjs'),
    });
    // setImmediate: the warm-up after initialize has had its turn.
    await new Promise((resolve) => setImmediate(resolve));
    expect(loaded).toEqual(Array.from({ length: loads }, () => fixture('stub-judge.cjs')));
    for (const { id } of calls)
      expect(replies.get(id)?.result).toEqual({ content: [{ type: 'text', text: '{"deny":true}\n' }] });
  });
});

describe('what the judge tells its session record', () => {
  test('connected: on notifications/initialized only (a host that gave up after initialize never sends it)', async () => {
    const told: string[] = [];
    const onConnected = () => told.push('connected');
    await exchange([], [{ id: 1, method: 'initialize', params: {} }], { onConnected });
    expect(told).toEqual([]);
    await exchange(
      [],
      [{ id: 1, method: 'initialize', params: {} }, { method: 'notifications/initialized' }],
      {
        onConnected,
      },
    );
    expect(told).toEqual(['connected']);
  });

  test('a guard that cannot be served is told as a problem; a served one is not', async () => {
    const problems: string[] = [];
    await exchange(
      [fixture('stub-judge.cjs')],
      [call(1, 'deny'), call(2, 'deny', { guard: 'other-guard' })],
      {
        onProblem: (text) => problems.push(text),
      },
    );
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^other-guard could not be loaded/);
  });
});

// The host bench's record of the judge's own work: one line per tools/call when the bench asks for
// it, nothing otherwise, and the same answers either way.
describe('KIT_JUDGE_SERVICE_TIMES', () => {
  const messages = [
    { id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25' } },
    { id: 9, method: 'tools/list' },
    call(1, 'deny'),
    call(2, 'ls'),
    call(3, 'refuse'),
  ];
  const served = async (env: Record<string, string>) =>
    JSON.stringify(
      [...(await exchange([fixture('stub-judge.cjs')], messages, { onAnswered: serviceTimes(env) }))].sort(),
    );
  test.for([
    ['set: one line per tools/call, none for initialize or tools/list', true, 3],
    ['unset: nothing recorded', false, 0],
  ] as const)('%s', async ([_name, set, lines]) => {
    const file = `${tempDir('kit-service-times')}/times.jsonl`;
    const answers = await served(set ? { [serviceTimesVariable]: file } : {});
    const recorded = existsSync(file) ? readFileSync(file, 'utf8').trimEnd().split('\n') : [];
    expect(recorded).toHaveLength(lines);
    for (const line of recorded) expect(JSON.parse(line)).toEqual({ ms: expect.any(Number) });
    // The positive control: the record never changes an answer.
    expect(answers).toBe(await served({}));
    expect(answers).toContain('{\\"deny\\":true}');
  });
});

describe('the payload rebuilt from the handler input', () => {
  const template = judgeInput('g').payload;

  test('the template names every field a guard reads, each as the host template', () => {
    expect(Object.keys(template).sort()).toEqual([
      'agent_id',
      'agent_type',
      'cwd',
      'hook_event_name',
      'permission_mode',
      'session_id',
      'tool_input',
      'tool_name',
      'tool_use_id',
      'transcript_path',
    ]);
    for (const [field, value] of Object.entries(template)) expect(value).toBe(`\${${field}}`);
  });

  test.for([
    [
      'tool_input parsed back from its JSON text',
      { tool_input: '{"command":"ls","timeout":5}' },
      { tool_input: { command: 'ls', timeout: 5 } },
    ],
    ['a field the payload lacked ("") is dropped', { agent_id: '', cwd: '/r' }, { cwd: '/r' }],
    [
      'a sub-agent marker is kept',
      { agent_id: 'a1', agent_type: 'general-purpose' },
      { agent_id: 'a1', agent_type: 'general-purpose' },
    ],
    [
      'tool_input that is no JSON stays a string (the protocol then drops it)',
      { tool_input: '{oops' },
      { tool_input: '{oops' },
    ],
    [
      'tool_input already an object is kept',
      { tool_input: { file_path: '/a.cs' } },
      { tool_input: { file_path: '/a.cs' } },
    ],
  ] as const)('%s', ([, filled, want]) => {
    expect(payloadFromArguments(filled)).toEqual(want);
  });

  test.for([['a string'], [null], [['an', 'array']]])(
    'a payload that is no object (%j) gives null',
    ([payload]) => {
      expect(payloadFromArguments(payload)).toBeNull();
    },
  );
});
