import { join } from 'node:path';

/**
 * The kit's per-user state folder: `$XDG_STATE_HOME/kit-hooks` when that is an absolute path, else
 * `~/.local/state/kit-hooks`; null when there is no home to keep it in. It holds the audit trail
 * (audit-log.ts) and the session records of a judge declared by `install` (mcp/session-status.ts).
 */
export function kitStateFolder(env: Record<string, string | undefined>): string | null {
  const state = env.XDG_STATE_HOME?.startsWith('/')
    ? env.XDG_STATE_HOME
    : env.HOME
      ? join(env.HOME, '.local', 'state')
      : null;
  return state === null ? null : join(state, 'kit-hooks');
}
