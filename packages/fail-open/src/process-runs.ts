import { readFileSync } from 'node:fs';

/**
 * True while `pid` runs: the one idea of "alive" of the verdict server, whose pid its claim on the
 * mailbox names. On Linux its state too: a server killed under an init that reaps no one stays a
 * zombie, and counts as ended.
 */
export function processRuns(pid: number): boolean {
  if (!(pid > 0)) return false;
  try {
    if (process.platform !== 'linux') return process.kill(pid, 0);
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const state = stat.charAt(stat.lastIndexOf(')') + 2);
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/** The pid the mailbox's claim names, 0 when none (no server serves it). */
export function claimedBy(mailbox: string, claim: string): number {
  try {
    return Number(readFileSync(`${mailbox}/${claim}`, 'latin1'));
  } catch {
    return 0;
  }
}
