import { type CommandLine, shellQuote } from '@kit/shell-segments';

/** Where a suggested rewrite sends its output, and what has to run first for the path to exist. */
export interface LogPath {
  path: string; // shell-quoted when it needs to be
  mkdir: string; // 'mkdir -p tmp && ' for the fallback, '' for the scratchpad
}

/** A session id the scratchpad path may be built from: nothing that could climb out of its folder. */
export const sessionIdPattern: RegExp = /^[A-Za-z0-9_-]+$/;

/**
 * The log path of a rewrite: the session scratchpad when it is confirmed on disk, otherwise
 * `tmp/out.log` with its own `mkdir -p tmp && ` (tmp/ is commonly gitignored and absent).
 */
export function chooseLogPath(scratchpad: string | null): LogPath {
  if (scratchpad) return { path: shellQuote(`${scratchpad.replace(/\/+$/, '')}/out.log`), mkdir: '' };
  return { path: 'tmp/out.log', mkdir: 'mkdir -p tmp && ' };
}

/** Whether a line runs on another machine: it, or a line it is nested in, is ssh's remote command. */
export function runsRemotely(line: CommandLine): boolean {
  for (let at: CommandLine | undefined = line; at; at = at.runner?.line) {
    if (at.runner?.kind === 'remote-command') return true;
  }
  return false;
}

/** The log path for a rewrite in this line: a remote line cannot name this machine's scratchpad. */
export function logPathIn(line: CommandLine, probe: () => LogPath): () => LogPath {
  return runsRemotely(line) ? () => chooseLogPath(null) : probe;
}
