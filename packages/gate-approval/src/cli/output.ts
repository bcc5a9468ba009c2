import type { CliIO } from '../guard.ts';

/** Prints one error line on stderr and gives the CLI's error exit code. */
export function fail(io: CliIO, message: string): number {
  io.stderr(`${message}\n`);
  return 1;
}

/** Prints lines on stdout. */
export function say(io: CliIO, ...lines: string[]): void {
  io.stdout(`${lines.join('\n')}\n`);
}

/** What `install --monitor` tells the user: what monitoring does, where it is recorded, and how to enforce. */
export function monitorNote(guardName: string): string {
  return (
    `monitor: ${guardName} judges every call and records each would-deny in ~/.local/state/kit-hooks/audit.jsonl ` +
    `($XDG_STATE_HOME/kit-hooks), and never tells the model. To enforce: \`${guardName} install\` with the same scope, without --monitor.`
  );
}

/** What --strict does and costs, printed whenever it is used. */
export const strictCostNote: string =
  'strict: the handler runs the guard with --strict (TAGOUT_HOOKS_STRICT: what it cannot judge in a ' +
  'repository it manages is refused) and has "onFailure": "block". The cost: when the host kills this hook at its ' +
  'timeout, or the hook cannot start or crashes, the host now BLOCKS the tool call instead of letting it ' +
  'through (Claude Code 2.1.295+; older versions ignore the field).';
