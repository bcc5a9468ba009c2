import type { HostName } from '../../hosts/host-adapter.ts';

/** A word as POSIX sh reads it literally: single quotes, each `'` inside closed, escaped and reopened. */
export function quoteForShell(word: string): string {
  return /^[A-Za-z0-9_./:@%+=-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The command a shell-form host runs for a guard's bundle: `node <bundle> --host <host>`. With
 * `failOpen`, for a host that blocks a call when its hook exits non-zero (Copilot CLI on any
 * failure, Gemini CLI on 127 and other codes), the shell turns every way node can fail (not on PATH,
 * the bundle missing or broken, a crash) into exit 0 with nothing printed. Only exit 0 reaches the
 * host: a deny the bundle wrote on stdout still arrives whole, and stderr is dropped because those
 * hosts read it as a reason.
 */
export function hookCommand(bundlePath: string, host: HostName, failOpen: boolean): string {
  const run = `node ${quoteForShell(bundlePath)} --host ${host}`;
  return failOpen ? `${run} 2>/dev/null || true` : run;
}
