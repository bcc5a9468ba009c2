import { existsSync, readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { tempDir } from '@kit/test-kit';
import { describe, expect, test } from 'vitest';
import { JudgeModules } from '../src/mcp/judge-modules.ts';
import { serveJudge } from '../src/mcp/judge-server.ts';
import { judgeInput } from '../src/mcp/payload-template.ts';
import { serviceTimes, serviceTimesVariable } from '../src/mcp/service-times.ts';

// The host bench's record of the judge's own work: one line per tools/call when the bench asks for
// it, nothing otherwise, and the answers byte for byte the same either way.
const stub = fileURLToPath(new URL('fixtures/judges/stub-judge.cjs', import.meta.url));
const call = (id: number, command: string) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: {
    name: 'judge',
    arguments: {
      ...judgeInput('stub-guard'),
      payload: { tool_name: 'Bash', tool_input: JSON.stringify({ command }) },
    },
  },
});
const messages = [
  { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25' } },
  { jsonrpc: '2.0', id: 9, method: 'tools/list' },
  call(1, 'deny'),
  call(2, 'ls'),
  call(3, 'refuse'),
];

/** The judge's output for `messages`, served with the given environment's service-time switch. */
async function serve(env: Record<string, string | undefined>): Promise<string> {
  const input = new PassThrough();
  const output = new PassThrough();
  const chunks: Buffer[] = [];
  output.on('data', (chunk: Buffer) => chunks.push(chunk));
  const served = serveJudge({
    input,
    output,
    modules: new JudgeModules([stub]),
    env: () => ({}),
    onAnswered: serviceTimes(env),
  });
  // One at a time: the answers' order is then fixed, so two runs compare byte for byte.
  for (const message of messages) {
    const before = chunks.length;
    input.write(`${JSON.stringify(message)}\n`);
    while (chunks.length === before) await new Promise((resolve) => setTimeout(resolve, 1));
  }
  input.end();
  await served;
  return Buffer.concat(chunks).toString('utf8');
}

describe('KIT_JUDGE_SERVICE_TIMES', () => {
  test.for([
    ['set: one line per tools/call, none for initialize or tools/list', true, 3],
    ['unset: nothing recorded', false, 0],
  ] as const)('%s', async ([_name, set, lines]) => {
    const file = `${tempDir('kit-service-times')}/times.jsonl`;
    const answers = await serve(set ? { [serviceTimesVariable]: file } : {});
    const recorded = existsSync(file) ? readFileSync(file, 'utf8').trimEnd().split('\n') : [];
    expect(recorded).toHaveLength(lines);
    for (const line of recorded) expect(JSON.parse(line)).toEqual({ ms: expect.any(Number) });
    // The positive control: the record never changes an answer.
    expect(answers).toBe(await serve({}));
    expect(answers).toContain('{\\"deny\\":true}');
  });
});
