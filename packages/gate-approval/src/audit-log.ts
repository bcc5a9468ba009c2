import { appendFileSync, chmodSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { switchedOff } from '@kit/fail-open';
import { kitStateFolder } from './state-folder.ts';

/**
 * The per-user record of what the guards did that a user may want to look back on: every deny,
 * refusal, escape used, override used, and each would-deny of monitor mode (audited-hook.ts writes
 * them). One JSON line per event in `$XDG_STATE_HOME/kit-hooks/audit.jsonl`
 * (`~/.local/state/kit-hooks/` when unset), mode 0600 in a 0700 folder, rotated to `audit.jsonl.1`
 * past `maxBytes` so it never holds more than about twice that. A command is written redacted
 * (redact.ts) and cut to `auditCommandChars`. `KIT_HOOKS_AUDIT=off` turns it off.
 */
export interface AuditEvent {
  time: string; // ISO 8601
  guard: string;
  event: AuditEventKind;
  rule?: string;
  tool?: string;
  command?: string; // redacted, at most auditCommandChars
  cwd?: string; // the payload's: where the call ran (its repository's folder or below)
  session?: string;
}

/** What happened: the host was told (deny, refuse), monitor mode kept it quiet (would-…), or the model went past a rule. */
export type AuditEventKind = 'deny' | 'refuse' | 'would-deny' | 'would-refuse' | 'escape' | 'override';

/** The longest command text a line keeps. */
export const auditCommandChars = 2000;

/** Largest audit file before it is rotated, in bytes. */
export const auditMaxBytes: number = 1024 * 1024;

/** The audit file for this environment, or null when the trail is off or there is no home to keep it in. */
export function auditFile(env: Record<string, string | undefined>): string | null {
  if (switchedOff(env.KIT_HOOKS_AUDIT)) return null;
  const folder = kitStateFolder(env);
  return folder === null ? null : join(folder, 'audit.jsonl');
}

/** Appends one event; rotates first when the file is past `maxBytes`. Throws on a file it cannot write. */
export function appendAudit(file: string, event: AuditEvent, maxBytes: number = auditMaxBytes): void {
  mkdirSync(join(file, '..'), { recursive: true, mode: 0o700 });
  let size = 0;
  try {
    size = statSync(file).size;
  } catch {
    // not there yet
  }
  if (size > maxBytes) renameSync(file, `${file}.1`);
  appendFileSync(file, `${JSON.stringify(event)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
}

/** The guard a reason is from: its opener (`git-write-gate: …`), or 'unknown'. */
export function guardOfReason(text: string): string {
  return /(?:^\s*|":\s*")([a-z][a-z0-9-]*-(?:guard|gate)): /.exec(text)?.[1] ?? 'unknown';
}
