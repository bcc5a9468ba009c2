import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { removeScratch, scratchDir, scratchRepo } from '@kit/e2e/src/scratch.ts';
import { judgeInput } from '@kit/gate-approval';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { describeRun, type HostRun, runHost } from '../src/host-cli.ts';

afterAll(removeScratch);

// Issue 25 item 4, tried with the real Codex CLI 0.171.0: an `mcp_tool` PreToolUse handler in
// $CODEX_HOME/hooks.json naming an MCP server Codex has from config.toml ([mcp_servers.kit-judge]),
// with the kit's handler shape and input template (gate-approval's judgeInput). The server here logs
// every request and denies every call. What Codex did is why `install --host codex` keeps the
// command hook (the guards' READMEs, "Other hosts"): the day these rows change, the wiring can follow.
const deny = JSON.stringify({
  hookSpecificOutput: {
    hookEventName: 'PreToolUse',
    permissionDecision: 'deny',
    permissionDecisionReason: 'kit-judge: denied over MCP',
  },
});
const loggingServer = (log: string) =>
  [
    "const { appendFileSync } = require('node:fs');",
    "require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {",
    '  const message = JSON.parse(line);',
    `  appendFileSync(${JSON.stringify(log)}, JSON.stringify(message) + '\\n');`,
    '  if (message.id === undefined) return;',
    "  const result = message.method === 'initialize'",
    "    ? { protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'kit-judge', version: '0' } }",
    "    : message.method === 'tools/list' ? { tools: [] }",
    `    : message.method === 'tools/call' ? { content: [{ type: 'text', text: ${JSON.stringify(deny)} }] } : {};`,
    "  process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }) + '\\n');",
    '});',
    '',
  ].join('\n');

// The kit's own handler input (gate-approval's judgeInput), and the same without the fields a
// main-thread Codex call lacks (agent_id, agent_type: a sub-agent's marker; transcript_path).
const kitInput = judgeInput('exit-status-guard');
const mainThreadInput = {
  ...kitInput,
  payload: Object.fromEntries(
    Object.entries(kitInput.payload).filter(
      ([field]) => !field.startsWith('agent_') && field !== 'transcript_path',
    ),
  ),
};

interface Trial {
  run: HostRun;
  project: string;
  requests: { method: string; params?: { name?: string; arguments?: { payload?: unknown } } }[];
}

/** One codex run whose hook asks the logging server's tool with `input`, the model running `touch ran.txt`. */
async function trial(input: object): Promise<Trial> {
  const home = await scratchDir('codex-mcp-home');
  const project = await scratchRepo('codex-mcp');
  const log = join(home, 'server.log');
  const server = join(home, 'kit-judge.cjs');
  await writeFile(server, loggingServer(log));
  await mkdir(join(home, '.codex'), { recursive: true });
  const handler = {
    type: 'mcp_tool',
    server: 'kit-judge',
    tool: 'judge',
    input,
    timeout: 5,
  };
  await writeFile(
    join(home, '.codex', 'hooks.json'),
    JSON.stringify({ hooks: { PreToolUse: [{ matcher: '^Bash$', hooks: [handler] }] } }),
  );
  const run = await runHost('codex', {
    cwd: project,
    home,
    script: [{ shell: 'touch ran.txt' }],
    codexTables: `[mcp_servers.kit-judge]\ncommand = "node"\nargs = [${JSON.stringify(server)}]\n`,
  });
  const lines = existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : [];
  return { run, project, requests: lines.map((line) => JSON.parse(line)) };
}

describe('codex 0.171: an mcp_tool PreToolUse handler over an MCP server codex has', () => {
  let mainThread: Trial;
  let kit: Trial;
  beforeAll(async () => {
    mainThread = await trial(mainThreadInput);
    kit = await trial(kitInput);
  });

  test('codex calls the tool over the connection it has, and the deny reaches the model: the command never runs', () => {
    const { run, project, requests } = mainThread;
    expect(
      requests.map((request) => request.method),
      describeRun(run),
    ).toEqual(['initialize', 'notifications/initialized', 'tools/list', 'tools/call']);
    expect(run.exchanges[0]?.output).toBe(
      'Command blocked by PreToolUse hook: kit-judge: denied over MCP. Command: touch ran.txt',
    );
    expect(existsSync(join(project, 'ran.txt'))).toBe(false);
  });

  test('the template as codex fills it: the fields its payload has, tool_input an object (Claude Code: JSON text)', () => {
    const call = mainThread.requests.find((request) => request.method === 'tools/call');
    expect(call?.params?.name).toBe('judge');
    expect(call?.params?.arguments?.payload, JSON.stringify(call)).toMatchObject({
      cwd: mainThread.project,
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'touch ran.txt' },
    });
  });

  // Claude Code fills a missing field with "": Codex skips the whole hook, without a word, and the
  // call runs. The kit's template names agent_id (git-write-gate offers its escape to the main thread
  // only), so on Codex it would leave every main-thread call unjudged; without it a sub-agent's call
  // would read as the main thread's: either way not the command hook's verdict.
  test("the kit's own template (agent_id, agent_type): codex skips the hook on a main-thread call, silently", () => {
    const { run, project, requests } = kit;
    expect(
      requests.map((request) => request.method),
      describeRun(run),
    ).not.toContain('tools/call');
    expect(existsSync(join(project, 'ran.txt'))).toBe(true);
    expect(run.stderr).not.toContain('kit-judge');
  });
});
