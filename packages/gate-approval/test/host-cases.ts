import { readFileSync } from 'node:fs';
import type { HostName } from '../src/index.ts';

// Payloads the real CLIs sent to a logging hook on this machine (Codex CLI 0.171.0, Gemini CLI
// 0.61.0, Copilot CLI 1.0.102, against loopback model stand-ins), one per line as
// `{ run, payload }`: `run` names the research run that produced it. The paths in them are the
// research folders' and exist nowhere else; the adapters only ever read them as text.
export type RecordedHost = Exclude<HostName, 'claude'>;

interface Recorded {
  run: string;
  payload: Record<string, unknown>;
}

const recorded: Record<RecordedHost, Recorded[]> = {
  codex: load('codex'),
  gemini: load('gemini'),
  copilot: load('copilot'),
};

function load(host: RecordedHost): Recorded[] {
  const text = readFileSync(new URL(`./fixtures/payloads/${host}.jsonl`, import.meta.url), 'utf8');
  return text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Recorded);
}

/** The `index`-th payload the host sent in one recorded run. */
export function recordedPayload(host: RecordedHost, run: string, index = 0): Record<string, unknown> {
  const found = recorded[host].filter((entry) => entry.run === run)[index];
  if (!found) throw new Error(`no payload #${index} of run ${run} in fixtures/payloads/${host}.jsonl`);
  return found.payload;
}

/** Every recorded payload of a host, for the "every row is used" check. */
export function allRecorded(host: RecordedHost): Recorded[] {
  return recorded[host];
}

/** What the adapter must make of a payload: the kit's call, or nothing (no opinion). */
export type Want =
  | { kind: 'bash'; command: string; cwd?: string; session_id?: string; agent_id?: string }
  | { kind: 'read'; file_path: string; cwd?: string; session_id?: string; agent_id?: string }
  | { kind: 'other'; tool_name: string } // read, but not a tool the kit's guards judge
  | { kind: 'unrecognised' }; // not this host's payload at all: an empty input

/** One row: a payload (recorded, or derived from a recorded one and saying how) and what it must read as. */
export interface HostReadCase {
  name: string;
  host: RecordedHost;
  payload: Record<string, unknown>;
  want: Want;
  recordedAs?: { run: string; index: number }; // set for a recorded payload used as it is
}

const research = '/work/research/hosts';
const codexRun = `${research}/codex/runs`;
const geminiRun = `${research}/gemini/runs`;
const copilotRun = `${research}/copilot/runs`;

function asRecorded(host: RecordedHost, run: string, index: number, name: string, want: Want): HostReadCase {
  return { name, host, payload: recordedPayload(host, run, index), want, recordedAs: { run, index } };
}

export const hostReadCases: HostReadCase[] = [
  // Codex CLI: Claude Code's field names; `cwd` is the command's workdir.
  asRecorded('codex', 'log-shell-patch', 0, 'codex: a shell call run in a workdir (positive control)', {
    kind: 'bash',
    command: 'echo hi > ran.txt',
    cwd: `${codexRun}/log-shell-patch/proj/sub`,
    session_id: '01a230e0-bea7-7fd3-b089-ea8c24edf979',
  }),
  asRecorded('codex', 'log-shell-patch', 2, 'codex: a shell call that reads a file', {
    kind: 'bash',
    command: 'cat notes.txt',
    cwd: `${codexRun}/log-shell-patch/proj`,
  }),
  asRecorded('codex', 'subagent', 2, "codex: a sub-agent's shell call keeps its agent_id", {
    kind: 'bash',
    command: 'echo sub > sub.txt',
    agent_id: '01a230e4-1b00-7881-b0ab-fc58e928c448',
    session_id: '01a230e4-197c-7421-a96a-e6e73652d95c',
  }),
  asRecorded('codex', 'log-shell-patch', 1, 'codex: apply_patch is not a shell call', {
    kind: 'other',
    tool_name: 'apply_patch',
  }),
  asRecorded('codex', 'subagent', 0, 'codex: spawning a sub-agent is not a shell call', {
    kind: 'other',
    tool_name: 'collaborationspawn_agent',
  }),
  asRecorded('codex', 'subagent', 1, 'codex: waiting for a sub-agent is not a shell call', {
    kind: 'other',
    tool_name: 'collaborationwait_agent',
  }),
  {
    name: 'codex: another event name is not a Codex pre-tool payload',
    host: 'codex',
    payload: { ...recordedPayload('codex', 'log-shell-patch'), hook_event_name: 'BeforeTool' },
    want: { kind: 'unrecognised' },
  },
  {
    name: "codex: Gemini CLI's payload is not Codex's",
    host: 'codex',
    payload: recordedPayload('gemini', 'log-shell-read'),
    want: { kind: 'unrecognised' },
  },
  {
    name: "codex: Copilot CLI's camelCase payload is not Codex's",
    host: 'codex',
    payload: recordedPayload('copilot', 'chat-log'),
    want: { kind: 'unrecognised' },
  },

  // Gemini CLI: its own tool names and arguments; dir_path moves the shell's cwd; no sub-agent marker.
  asRecorded('gemini', 'log-shell-read', 0, 'gemini: run_shell_command is a Bash call (positive control)', {
    kind: 'bash',
    command: 'echo hi > ran.txt',
    cwd: `${geminiRun}/log-shell-read/proj`,
    session_id: '14b80096-2182-4090-8f85-4b5dac975ad4',
  }),
  asRecorded('gemini', 'project', 0, 'gemini: dir_path is where the command runs', {
    kind: 'bash',
    command: 'echo hi > ran.txt',
    cwd: `${geminiRun}/project/proj/sub`,
  }),
  asRecorded('gemini', 'project-env', 0, 'gemini: a command with its own cd keeps the payload cwd', {
    kind: 'bash',
    command: 'cd sub 2>/dev/null; echo hi > ran.txt',
    cwd: `${geminiRun}/project-env/proj`,
  }),
  asRecorded(
    'gemini',
    'subagent',
    0,
    "gemini: a sub-agent's call has no marker: it reads as the main thread's",
    {
      kind: 'bash',
      command: 'echo sub > sub.txt',
    },
  ),
  asRecorded('gemini', 'log-shell-read', 1, "gemini: read_file's relative path is resolved against cwd", {
    kind: 'read',
    file_path: `${geminiRun}/log-shell-read/proj/notes.txt`,
    cwd: `${geminiRun}/log-shell-read/proj`,
  }),
  {
    name: 'gemini: another tool keeps its name behind gemini:',
    host: 'gemini',
    payload: {
      ...recordedPayload('gemini', 'log-shell-read'),
      tool_name: 'write_file',
      tool_input: { file_path: 'a.txt', content: 'git push' },
    },
    want: { kind: 'other', tool_name: 'gemini:write_file' },
  },
  {
    name: 'gemini: a tool the host names Bash is still not its shell',
    host: 'gemini',
    payload: { ...recordedPayload('gemini', 'log-shell-read'), tool_name: 'Bash' },
    want: { kind: 'other', tool_name: 'gemini:Bash' },
  },
  {
    name: 'gemini: run_shell_command without a string command',
    host: 'gemini',
    payload: { ...recordedPayload('gemini', 'log-shell-read'), tool_input: { command: ['make', 'test'] } },
    want: { kind: 'unrecognised' },
  },
  {
    name: 'gemini: tool_input that is not an object',
    host: 'gemini',
    payload: { ...recordedPayload('gemini', 'log-shell-read'), tool_input: '{"command":"make test"}' },
    want: { kind: 'unrecognised' },
  },
  {
    name: "gemini: Codex CLI's payload (PreToolUse) is not Gemini's",
    host: 'gemini',
    payload: recordedPayload('codex', 'log-shell-patch'),
    want: { kind: 'unrecognised' },
  },

  // Copilot CLI, camelCase dialect: `bash` and `view`; toolArgs an object (1.0.102) or a JSON text (the reference).
  asRecorded('copilot', 'chat-log', 0, 'copilot: bash is a Bash call (positive control)', {
    kind: 'bash',
    command: 'echo hi > ran.txt',
    cwd: `${copilotRun}/chat-log/proj`,
    session_id: 'dc01872f-2cc5-41ea-b31b-e645655809e3',
  }),
  asRecorded('copilot', 'chat-log', 2, 'copilot: bash with a mode', {
    kind: 'bash',
    command: 'cat notes.txt',
  }),
  asRecorded(
    'copilot',
    'subagent',
    1,
    "copilot: a sub-agent's call: agentId becomes agent_id, sessionId its own",
    {
      kind: 'bash',
      command: 'echo sub > sub.txt',
      agent_id: 'a1b42e47-f0ed-45a7-8fd5-b86191b8109d',
      session_id: 'a1b42e47-f0ed-45a7-8fd5-b86191b8109d',
    },
  ),
  asRecorded('copilot', 'chat-log', 1, "copilot: view's relative path is resolved against cwd", {
    kind: 'read',
    file_path: `${copilotRun}/chat-log/proj/notes.txt`,
  }),
  asRecorded('copilot', 'subagent', 0, 'copilot: the task tool keeps its name behind copilot:', {
    kind: 'other',
    tool_name: 'copilot:task',
  }),
  {
    name: 'copilot: toolArgs as a JSON text, as the reference documents it',
    host: 'copilot',
    payload: {
      ...recordedPayload('copilot', 'chat-log'),
      toolArgs: JSON.stringify({ command: 'make test | tail -5' }),
    },
    want: { kind: 'bash', command: 'make test | tail -5' },
  },
  {
    name: 'copilot: toolArgs a text that is not JSON',
    host: 'copilot',
    payload: { ...recordedPayload('copilot', 'chat-log'), toolArgs: 'make test | tail -5' },
    want: { kind: 'unrecognised' },
  },
  {
    name: 'copilot: toolArgs a JSON text of an array',
    host: 'copilot',
    payload: { ...recordedPayload('copilot', 'chat-log'), toolArgs: '["make"]' },
    want: { kind: 'unrecognised' },
  },
  asRecorded(
    'copilot',
    'pascal-log',
    0,
    "copilot: the PreToolUse dialect is Claude Code's, not this adapter's",
    {
      kind: 'unrecognised',
    },
  ),
  asRecorded(
    'copilot',
    'claude-proj-deny',
    0,
    "copilot: a project's .claude/settings.json call (Claude dialect)",
    {
      kind: 'unrecognised',
    },
  ),
  asRecorded('copilot', 'subagent-pascal', 0, "copilot: the Claude dialect's Agent call", {
    kind: 'unrecognised',
  }),
  asRecorded('copilot', 'subagent-pascal', 1, "copilot: the Claude dialect's sub-agent Bash call", {
    kind: 'unrecognised',
  }),
  asRecorded('copilot', 'subagent-pascal', 2, "copilot: the Claude dialect's Read (path, not file_path)", {
    kind: 'unrecognised',
  }),
  {
    name: "copilot: Gemini CLI's payload is not Copilot's",
    host: 'copilot',
    payload: recordedPayload('gemini', 'log-shell-read'),
    want: { kind: 'unrecognised' },
  },
];
