import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isJsonObject, processRuns } from '@kit/fail-open';
import { kitStateFolder } from '../state-folder.ts';

/**
 * What a session's MCP judge records of itself, in its data folder (`<data>/sessions/<session
 * id>.json`): that it started (its pid), how many times it started again in the same session (the
 * host restarts a judge that crashed), each guard it could not load, and each judge module it loaded
 * (by path: what doctor and the tests read). Both routes keep one: the kit-judge plugin's server in
 * `$CLAUDE_PLUGIN_DATA`, the server `install` declares in the kit's state folder
 * (judgeServerDataFolder). The plugin's UserPromptSubmit hook and `statusline` read it: a judge that
 * never connected leaves no record at all. A folder keeps few: each start prunes the records of ended
 * judges past a day, and the oldest past `sessionRecordBounds.most`.
 */
export interface SessionStatus {
  pid: number;
  restarts: number;
  problems: string[];
  /** The judge modules the current process loaded, in order. */
  loaded: string[];
}

/** The status file of a session, or undefined when the environment names no data folder or session. */
export function sessionStatusFile(
  dataDir: string | undefined,
  sessionId: string | undefined,
): string | undefined {
  if (!dataDir || !sessionId || !/^[\w.-]+$/.test(sessionId)) return undefined;
  return join(dataDir, 'sessions', `${sessionId}.json`);
}

/** The status as recorded, or undefined when there is none (or it cannot be read). */
export function readSessionStatus(file: string): SessionStatus | undefined {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (!isJsonObject(parsed) || typeof parsed.pid !== 'number') return undefined;
    const restarts = typeof parsed.restarts === 'number' ? parsed.restarts : 0;
    return { pid: parsed.pid, restarts, problems: strings(parsed.problems), loaded: strings(parsed.loaded) };
  } catch {
    return undefined;
  }
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** Writes the status whole (a temp file renamed over it). A failure is ignored: the record is a courtesy. */
export function writeSessionStatus(file: string, status: SessionStatus): void {
  try {
    mkdirSync(join(file, '..'), { recursive: true, mode: 0o700 });
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, `${JSON.stringify(status)}\n`, { mode: 0o600 });
    renameSync(temp, file);
  } catch {
    // no data folder to write: the user hook then says the judge never connected, which errs loud
  }
}

/**
 * The judge's record keeper for its session: at start it counts a restart when a record of another
 * process is there already (whose loaded modules are then not this process's), prunes the folder,
 * and each problem and each loaded module is added once.
 */
export function sessionRecorder(
  file: string | undefined,
  loadedBefore: readonly string[] = [],
): SessionRecorder {
  if (file === undefined) return { problem: () => undefined, loaded: () => undefined };
  const before = readSessionStatus(file);
  const same = before?.pid === process.pid;
  const status: SessionStatus = {
    pid: process.pid,
    restarts: before === undefined ? 0 : before.restarts + (same ? 0 : 1),
    problems: before?.problems ?? [],
    loaded: [...new Set([...(same ? before.loaded : []), ...loadedBefore])],
  };
  writeSessionStatus(file, status);
  pruneSessionRecords(dirname(file), file);
  const add = (list: string[], item: string) => {
    if (list.includes(item)) return;
    list.push(item);
    writeSessionStatus(file, status);
  };
  return { problem: (text) => add(status.problems, text), loaded: (module) => add(status.loaded, module) };
}

/** What the judge tells its session's record. */
export interface SessionRecorder {
  problem: (text: string) => void;
  loaded: (module: string) => void;
}

/**
 * A judge server's hooks for its session record (serveJudge's onConnected and onProblem, and
 * JudgeModules' onLoaded): the record is written once the host says the connection is up, since a
 * judge the host gave up on before that (slow to start past MCP_TIMEOUT) never served the session,
 * and the user must hear of it. Modules load right after initialize, before that: kept until then.
 */
export function sessionRecording(file: string | undefined): {
  onConnected: () => void;
  onProblem: (text: string) => void;
  onLoaded: (module: string) => void;
} {
  let record: SessionRecorder | undefined;
  const loadedSoFar: string[] = [];
  const recorder = () => {
    record ??= sessionRecorder(file, loadedSoFar);
    return record;
  };
  return {
    onConnected: recorder,
    onProblem: (text) => recorder().problem(text),
    onLoaded: (module) => {
      loadedSoFar.push(module);
      record?.loaded(module);
    },
  };
}

/** How long an ended judge's record is kept, and the most records a folder keeps. */
export const sessionRecordBounds = { endedAfterMs: 86_400_000, most: 200 };

/**
 * Removes from a sessions folder, `keep` aside, each record (or a temp file a crash left) older than
 * `endedAfterMs` whose process has ended, and the oldest beyond `most`. Failures are ignored.
 */
export function pruneSessionRecords(
  folder: string,
  keep: string,
  now: number = Date.now(),
  runs: (pid: number) => boolean = processRuns,
  bounds: typeof sessionRecordBounds = sessionRecordBounds,
): void {
  let names: string[];
  try {
    names = readdirSync(folder).filter((name) => /\.(?:json|tmp)$/.test(name));
  } catch {
    return;
  }
  const records = names
    .map((name) => join(folder, name))
    .filter((file) => file !== keep)
    .map((file) => ({ file, time: modifiedAt(file) }))
    .sort((a, b) => b.time - a.time);
  records.forEach((record, index) => {
    const old = now - record.time > bounds.endedAfterMs;
    const ended = old && !runs(readSessionStatus(record.file)?.pid ?? 0);
    if (ended || index >= bounds.most - 1) rmSync(record.file, { force: true });
  });
}

function modifiedAt(file: string): number {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

/** The folder the kit-judge plugin of a marketplace records its sessions in: its `$CLAUDE_PLUGIN_DATA`. */
export function judgePluginDataFolder(claudeConfigDir: string, marketplace: string): string {
  return join(claudeConfigDir, 'plugins', 'data', `kit-judge-${marketplace}`);
}

/**
 * The data folder of the judge server `install` declares (`claude mcp add`, a guard's dist/mcp.cjs):
 * `kit-judge` in the kit's state folder, beside the audit trail; `home` stands in for an unset HOME.
 */
export function judgeServerDataFolder(
  env: Record<string, string | undefined>,
  home?: string,
): string | undefined {
  const folder = kitStateFolder(home === undefined ? env : { ...env, HOME: env.HOME ?? home });
  return folder === null ? undefined : join(folder, 'kit-judge');
}

/**
 * What a session's record says of its judge now, in a status line's words: no record is a judge
 * that has not connected (yet, or ever); a record whose process is gone, a judge that stopped (the
 * host starts it again at the next guarded call); else connected, with any guard it could not load.
 */
export function judgeStateWords(status: SessionStatus | undefined, runs: (pid: number) => boolean): string {
  if (status === undefined) return 'judge not connected';
  if (!runs(status.pid)) return 'judge stopped';
  const missing = status.problems.length;
  return missing === 0 ? 'judge connected' : `judge connected, ${missing} not loaded`;
}
