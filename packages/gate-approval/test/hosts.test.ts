import { describe, expect, test } from 'vitest';
import {
  bashPayload,
  cannotJudge,
  claudeCode,
  codex,
  copilotCli,
  deny,
  geminiCli,
  type HookInput,
  hostAdapters,
  none,
  protocolFromArgs,
  readPayload,
  refuse,
  type Verdict,
} from '../src/index.ts';
import { allRecorded, hostReadCases, type RecordedHost, type Want } from './host-cases.ts';

const protocols = { codex, gemini: geminiCli, copilot: copilotCli } as const;

function expectReads(input: HookInput, want: Want): void {
  switch (want.kind) {
    case 'bash': {
      const { kind, command, ...fields } = want;
      expect(input).toMatchObject({ ...fields, tool_name: 'Bash' });
      expect(input.tool_input?.command).toBe(command);
      if (!('agent_id' in want)) expect(input.agent_id).toBeUndefined();
      break;
    }
    case 'read': {
      const { kind, ...fields } = want;
      const { file_path, ...rest } = fields;
      expect(input).toMatchObject({ ...rest, tool_name: 'Read', tool_input: { file_path } });
      break;
    }
    case 'other':
      expect(input.tool_name).toBe(want.tool_name);
      break;
    case 'unrecognised':
      expect(input).toEqual({});
      break;
  }
}

describe('each adapter reads its host’s recorded payloads as the kit’s call, and nothing else', () => {
  test.for(hostReadCases)('$name', ({ host, payload, want }) => {
    const input = protocols[host].readInput(payload);
    expectReads(input, want);
    // A guard sees a Bash call only where the host made a shell call, a Read only where it read a file.
    expect(input.tool_name === 'Bash').toBe(want.kind === 'bash');
    expect(input.tool_name === 'Read').toBe(want.kind === 'read');
  });

  test.for(['codex', 'gemini', 'copilot'] as const)('every recorded %s payload has a row', (host) => {
    const used = new Set(
      hostReadCases
        .filter((row) => row.host === host && row.recordedAs)
        .map((row) => `${row.recordedAs?.run}#${row.recordedAs?.index}`),
    );
    const seen = new Map<string, number>();
    const all = allRecorded(host as RecordedHost).map(({ run }) => {
      const index = seen.get(run) ?? 0;
      seen.set(run, index + 1);
      return `${run}#${index}`;
    });
    expect(all.filter((key) => !used.has(key))).toEqual([]);
  });

  test('no row name appears twice', () => {
    const names = hostReadCases.map((row) => row.name);
    expect(new Set(names).size).toBe(names.length);
  });

  test("Copilot CLI's Claude dialect goes through claudeCode: its Bash is read, its Read (path) is not", () => {
    const bash = hostReadCases.find((row) => row.recordedAs?.run === 'pascal-log')?.payload ?? {};
    const read = hostReadCases.find((row) => row.name.includes('(path, not file_path)'))?.payload ?? {};
    expect(claudeCode.readInput(bash)).toMatchObject({
      tool_name: 'Bash',
      tool_input: { command: 'echo hi > ran.txt' },
    });
    expect(claudeCode.readInput(read)).toMatchObject({
      tool_name: 'Read',
      tool_input: { path: 'notes.txt' },
    });
    expect(claudeCode.readInput(read).tool_input?.file_path).toBeUndefined();
  });
});

const reason = 'g: say "why"\nand how';
const wire: Record<RecordedHost, string> = {
  codex: `${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason } })}\n`,
  gemini: `${JSON.stringify({ decision: 'deny', reason })}\n`,
  copilot: `${JSON.stringify({ permissionDecision: 'deny', permissionDecisionReason: reason })}\n`,
};

describe.for(['codex', 'gemini', 'copilot'] as const)('%s: a verdict on the wire', (host) => {
  const encode = protocols[host].encode;
  test('deny: the exact JSON line on stdout, exit 0 (positive control)', () =>
    expect(encode(deny('g', 'say "why"\nand how'))).toEqual({
      stdout: wire[host],
      stderr: '',
      exitCode: 0,
      verdict: 'deny',
    }));
  test('refuse: the same block on stdout, exit 0 (the host has one way to block with a reason)', () =>
    expect(encode(refuse('g', 'say "why"\nand how'))).toEqual({
      stdout: wire[host],
      stderr: '',
      exitCode: 0,
      verdict: 'refuse',
    }));
  test('none and cannotJudge: nothing, exit 0', () => {
    expect(encode(none())).toEqual({ stdout: '', stderr: '', exitCode: 0, verdict: 'none' });
    expect(encode(cannotJudge('syntax'))).toEqual({
      stdout: '',
      stderr: '',
      exitCode: 0,
      verdict: 'cannotJudge',
      cause: 'syntax',
    });
  });
  test('never ask, never allow', () => {
    for (const verdict of [deny('g', 'x'), refuse('g', 'x'), none(), cannotJudge('c')])
      expect(encode(verdict).stdout).not.toMatch(/"(ask|allow|approve)"/);
  });
  test.for([
    ['null', null],
    ['an unknown kind', { kind: 'ask', reason: 'x' }],
    ['a deny without reason', { kind: 'deny' }],
    ['a refuse with a blank reason', { kind: 'refuse', reason: ' ' }],
  ] as const)('throws a TypeError for %s (runHook makes that no opinion)', ([, value]) => {
    expect(() => encode(value as unknown as Verdict)).toThrow(TypeError);
  });
  test("the host's deny check accepts exactly its own deny", () => {
    const adapter = hostAdapters[host];
    expect(adapter.isDenyOutput(wire[host])).toBe(true);
    for (const other of ['codex', 'gemini', 'copilot'] as const)
      if (other !== host) expect(adapter.isDenyOutput(wire[other])).toBe(false);
    expect(adapter.isDenyOutput('')).toBe(false);
    expect(adapter.isDenyOutput('deny')).toBe(false);
  });
});

test('codex: a deny carries no field beyond the three Codex reads (an unknown one fails the hook open)', () => {
  const written = JSON.parse(codex.encode(deny('g', 'x')).stdout) as { hookSpecificOutput: object };
  expect(Object.keys(written)).toEqual(['hookSpecificOutput']);
  expect(Object.keys(written.hookSpecificOutput)).toEqual([
    'hookEventName',
    'permissionDecision',
    'permissionDecisionReason',
  ]);
  expect(hostAdapters.codex.isDenyOutput(JSON.stringify({ ...written, systemMessage: 'x' }))).toBe(false);
});

describe('payloadOf: a kit call as each host sends it, read back by the same host', () => {
  const bash = bashPayload('make test | tail -5', { cwd: '/repo', sessionId: 's1' });
  const read = readPayload('/repo/App.cs', { cwd: '/repo', sessionId: 's1' });
  test.for(['codex', 'gemini', 'copilot'] as const)('%s: a Bash call round-trips', (host) => {
    const payload = hostAdapters[host].payloadOf(bash);
    expect(payload).not.toBeNull();
    expect(protocols[host].readInput(payload ?? {})).toMatchObject({
      tool_name: 'Bash',
      tool_input: { command: 'make test | tail -5' },
      cwd: '/repo',
      session_id: 's1',
    });
  });
  test.for(['gemini', 'copilot'] as const)('%s: a Read round-trips', (host) => {
    const payload = hostAdapters[host].payloadOf(read);
    expect(protocols[host].readInput(payload ?? {})).toMatchObject({
      tool_name: 'Read',
      tool_input: { file_path: '/repo/App.cs' },
      session_id: 's1',
    });
  });
  test('codex has no file-read tool: a Read has no Codex payload', () =>
    expect(hostAdapters.codex.payloadOf(read)).toBeNull());
  test.for(['codex', 'copilot'] as const)("%s: a sub-agent's call keeps its marker", (host) => {
    const payload = hostAdapters[host].payloadOf(bashPayload('ls', { cwd: '/r', agentId: 'a1' }));
    expect(protocols[host].readInput(payload ?? {}).agent_id).toBe('a1');
  });
  test('each payload is the shape the host really sends', () => {
    expect(hostAdapters.codex.payloadOf(bash)).toMatchObject({
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'make test | tail -5' },
    });
    expect(hostAdapters.gemini.payloadOf(bash)).toMatchObject({
      hook_event_name: 'BeforeTool',
      tool_name: 'run_shell_command',
    });
    expect(hostAdapters.copilot.payloadOf(bash)).toMatchObject({
      sessionId: 's1',
      toolName: 'bash',
      toolArgs: { command: 'make test | tail -5' },
    });
    expect(hostAdapters.claude.payloadOf(bash)).toEqual(bash);
  });
});

describe('protocolFromArgs: the installed command names its host', () => {
  test.for([
    [[], claudeCode],
    [['--host', 'claude'], claudeCode],
    [['--host', 'codex'], codex],
    [['--host=gemini'], geminiCli],
    [['--host', 'copilot'], copilotCli],
  ] as const)('%j', ([argv, protocol]) => expect(protocolFromArgs(argv)).toBe(protocol));

  test.for([
    ['an unknown host', ['--host', 'cursor']],
    ['a missing value', ['--host']],
    ['a host given twice', ['--host', 'codex', '--host', 'gemini']],
    ['an unknown option', ['--strictly']],
    ['a stray argument', ['codex']],
    ['a host in the wrong case', ['--host', 'Codex']],
  ] as const)('%s: a protocol that reads nothing and writes nothing', ([, argv]) => {
    const protocol = protocolFromArgs(argv);
    expect(protocol.readInput(bashPayload('shred x'))).toEqual({});
    for (const verdict of [deny('g', 'x'), refuse('g', 'x')])
      expect(protocol.encode(verdict)).toMatchObject({ stdout: '', stderr: '', exitCode: 0 });
  });
});
