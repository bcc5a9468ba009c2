import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isJsonObject } from '@kit/fail-open';

/**
 * What the kit-judge plugin's server records of itself for one session, in the plugin's data folder
 * (`$CLAUDE_PLUGIN_DATA/sessions/<session id>.json`): that it started (its pid), how many times it
 * started again in the same session (the host restarts a judge that crashed), each guard it
 * could not load, and each judge module it loaded (by path: what doctor and the tests read). The plugin's UserPromptSubmit hook reads it to tell the user, once, that the
 * session is not (fully) guarded: a judge that never connected leaves no record at all.
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
 * process is there already (whose loaded modules are then not this process's), and each problem and
 * each loaded module is added once.
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

/** The folder the kit-judge plugin of a marketplace records its sessions in: its `$CLAUDE_PLUGIN_DATA`. */
export function judgePluginDataFolder(claudeConfigDir: string, marketplace: string): string {
  return join(claudeConfigDir, 'plugins', 'data', `kit-judge-${marketplace}`);
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
