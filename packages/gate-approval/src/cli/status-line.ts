import { spawnSync } from 'node:child_process';
import { isJsonObject, processRuns } from '@kit/fail-open';
import type { AuditEvent } from '../audit-log.ts';
import { auditFileOf, readAuditEvents } from '../audit-read.ts';
import type { CliIO, GuardDefinition } from '../guard.ts';
import { parseArgs } from './args.ts';
import { idleHere } from './idle-here.ts';
import { judgeStateWords, readSessionStatus, sessionStatusFile } from '../mcp/session-status.ts';
import { findInstalledGuards, type InstalledGuard } from './installed-guards.ts';
import { fail, say } from './output.ts';

/** What `statusline --help` prints beyond the synopsis. */
export const statusLineDetails: string[] = [
  'For Claude Code\'s statusLine: {"statusLine": {"type": "command", "command": "<guard> statusline"}}. Reads the session\'s JSON on stdin.',
  "Prints each kit guard the session's settings wire: enforcing or monitoring, strict, idle here (this guard's own words), the MCP judge (connected, not connected or stopped, from the session record its judge keeps: a plugin's in its data folder, install's in $XDG_STATE_HOME/kit-hooks/kit-judge/), and the session's denies from the audit trail.",
  "--then '<command>' runs the status line you already have (through sh, the same JSON on its stdin) and prints its first line before the kit's, its other lines after.",
];

/** What the host tells a status line command of the session. */
interface SessionFacts {
  sessionId: string | null;
  cwd: string;
  projectDir: string;
}

/** `statusline [--then '<command>']`. */
export async function statusLineCommand(guard: GuardDefinition, argv: string[], io: CliIO): Promise<number> {
  const parsed = parseArgs(argv, { flags: [], options: ['--then'] });
  if (!parsed.ok) return fail(io, `statusline: ${parsed.message}; run \`${guard.name} statusline --help\``);
  if (parsed.value.positionals.length > 0)
    return fail(io, `statusline: unexpected argument ${parsed.value.positionals[0]}`);
  const stdin = await readInput(io);
  const session = sessionFacts(stdin, io.cwd);
  const installed = await findInstalledGuards(io.home, session.projectDir, io.env);
  const file = auditFileOf(io.env, io.home);
  const events = file === null || session.sessionId === null ? [] : readAuditEvents(file);
  const judge = (entry: InstalledGuard) => judgeWords(entry, session.sessionId);
  const ours = renderStatusLine(
    guard,
    installed,
    sessionEvents(events, session.sessionId),
    session,
    io.env,
    judge,
  );
  const then = parsed.value.options.get('--then');
  const theirs = then === undefined ? [] : runTheirs(then, stdin, io);
  const [first, ...rest] = theirs;
  say(io, ...(first ? [`${first}  |  ${ours}`, ...rest] : [ours]));
  return 0;
}

/** The session's facts from the host's JSON; the current folder for what it does not say. */
export function sessionFacts(stdin: string, fallbackCwd: string): SessionFacts {
  let value: unknown = null;
  try {
    value = JSON.parse(stdin);
  } catch {
    // no JSON: a status line still says what it can
  }
  const json = isJsonObject(value) ? value : {};
  const workspace = isJsonObject(json.workspace) ? json.workspace : {};
  const text = (candidate: unknown): string | null =>
    typeof candidate === 'string' && candidate !== '' ? candidate : null;
  const cwd = text(workspace.current_dir) ?? text(json.cwd) ?? fallbackCwd;
  return { sessionId: text(json.session_id), cwd, projectDir: text(workspace.project_dir) ?? cwd };
}

function sessionEvents(events: AuditEvent[], sessionId: string | null): AuditEvent[] {
  return sessionId === null ? [] : events.filter((event) => event.session === sessionId);
}

// Each route's judge records each session it serves (session-status.ts): whether it connected and still runs.
function judgeWords(entry: InstalledGuard, sessionId: string | null): string {
  const file = sessionStatusFile(entry.judgeRecords ?? undefined, sessionId ?? undefined);
  return file === undefined ? 'judge unknown' : judgeStateWords(readSessionStatus(file), processRuns);
}

/**
 * One line: `kit: <guard> <state>[, N denied][, N would-deny] · …`. The guard running the command
 * adds its own "idle here"; a guard no settings wire is "not installed" when it is this one.
 */
export function renderStatusLine(
  guard: Pick<GuardDefinition, 'name' | 'idleHere'>,
  installed: InstalledGuard[],
  events: AuditEvent[],
  session: SessionFacts,
  env: Record<string, string | undefined>,
  judge: (entry: InstalledGuard) => string = () => 'judge unknown',
): string {
  const names = [
    ...new Set([...installed.map((entry) => entry.guard), ...events.map((event) => event.guard)]),
  ];
  if (!names.includes(guard.name)) names.unshift(guard.name);
  const parts = names.map((name) => {
    const entry = installed.find((each) => each.guard === name);
    const words: string[] = [];
    if (entry === undefined) words.push('not installed');
    else {
      words.push(entry.monitoring ? 'monitoring' : 'enforcing');
      if (entry.strict) words.push('strict');
      if (entry.via === 'plugin') words.push('plugin');
      if (entry.judge) words.push(judge(entry));
    }
    if (name === guard.name && entry !== undefined && idleHere(guard, session.cwd, env) !== null)
      words.push('idle here');
    const count = (kinds: AuditEvent['event'][]) =>
      events.filter((e) => e.guard === name && kinds.includes(e.event)).length;
    const denied = count(['deny', 'refuse']);
    const would = count(['would-deny', 'would-refuse']);
    const overridden = count(['escape', 'override']);
    if (denied > 0) words.push(`${denied} denied`);
    if (would > 0) words.push(`${would} would-deny`);
    if (overridden > 0) words.push(`${overridden} overridden`);
    return `${name} ${words.join(', ')}`;
  });
  return `kit: ${parts.join(' · ')}`;
}

function runTheirs(command: string, stdin: string, io: CliIO): string[] {
  const result = spawnSync('/bin/sh', ['-c', command], {
    input: stdin,
    cwd: io.cwd,
    env: { ...io.env } as NodeJS.ProcessEnv,
    encoding: 'utf8',
    timeout: 5000,
  });
  const out = typeof result.stdout === 'string' ? result.stdout.replace(/\n+$/, '') : '';
  return out === '' ? [] : out.split('\n');
}

async function readInput(io: CliIO): Promise<string> {
  if (io.stdin) return io.stdin().catch(() => '');
  if (process.stdin.isTTY) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
