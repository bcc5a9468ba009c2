import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type AuditEvent, auditFile } from './audit-log.ts';

const eventKinds = new Set(['deny', 'refuse', 'would-deny', 'would-refuse', 'escape', 'override']);

/** The audit trail's events, oldest first: the rotated file, then the current one. Lines that are not events are skipped. */
export function readAuditEvents(file: string): AuditEvent[] {
  const events: AuditEvent[] = [];
  for (const path of [`${file}.1`, file]) {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n')) {
      const event = parseEvent(line);
      if (event !== null) events.push(event);
    }
  }
  return events;
}

function parseEvent(line: string): AuditEvent | null {
  if (line.trim() === '') return null;
  try {
    const value: unknown = JSON.parse(line);
    if (typeof value !== 'object' || value === null) return null;
    const event = value as Partial<AuditEvent>;
    const ok =
      typeof event.time === 'string' &&
      typeof event.guard === 'string' &&
      eventKinds.has(String(event.event));
    return ok ? (event as AuditEvent) : null;
  } catch {
    return null;
  }
}

/** The audit file of this environment, as audit-log.ts writes it (null when the trail is off or there is no home). */
export function auditFileOf(env: Record<string, string | undefined>, home: string): string | null {
  return auditFile({ ...env, HOME: env.HOME ?? home });
}

/**
 * The repository a folder is in: the nearest folder up from it holding `.git` (a clone or a linked
 * worktree), or the folder itself when none does or it is gone.
 */
export function repositoryOf(folder: string, cache: Map<string, string> = new Map()): string {
  const known = cache.get(folder);
  if (known !== undefined) return known;
  let current = folder;
  let found = folder;
  for (;;) {
    if (existsSync(join(current, '.git'))) {
      found = current;
      break;
    }
    const parent = dirname(current);
    if (parent === current) break;
    current = parent;
  }
  cache.set(folder, found);
  return found;
}
