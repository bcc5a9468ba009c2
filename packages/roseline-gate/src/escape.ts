import { createHash } from 'node:crypto';
import type { Outcome, TextFileProblem } from '@kit/fail-open';
import type { PathFlavor } from './csharp-path.ts';

/** How long after a denial the identical Read passes: two minutes. */
export const escapeWindowMs = 120_000;

/** The file probes the escape store needs; each reports failure as a value, never a throw. */
export interface MarkerStore {
  readText: (file: string) => Outcome<string, TextFileProblem>; // absent or unreadable: no marker
  writeText: (file: string, text: string) => boolean; // creates missing folders; false: could not write
  removeFile: (file: string) => boolean; // false: could not remove
}

/** What the escape store says about one Read that is otherwise denied. */
export type EscapeOutcome =
  | { kind: 'pass'; marker: string } // an identical Read was denied within the window: let this one through, once
  | { kind: 'armed'; marker: string } // deny; the marker now lets the next identical Read through
  | { kind: 'unwritable'; marker: string }; // the marker could not be written: no escape could exist, so no opinion

/** The folder holding one session's markers: `<temp>/roseline-gate/<session>`. */
export function sessionMarkerFolder(tempFolder: string, sessionId: string, flavor: PathFlavor): string {
  return flavor.join(tempFolder, 'roseline-gate', sessionFolderName(sessionId));
}

/** The marker file of one Read: the session folder plus a hash of the file path as the host sent it. */
export function escapeMarkerPath(
  tempFolder: string,
  sessionId: string,
  filePath: string,
  flavor: PathFlavor,
): string {
  return flavor.join(
    sessionMarkerFolder(tempFolder, sessionId, flavor),
    `${sha256(filePath).slice(0, 32)}.json`,
  );
}

/**
 * Consumes a fresh marker (the Read passes) or arms a new one (the Read is denied). A marker that is
 * stale, from the future, unreadable or for another path counts as none: the Read is denied again.
 */
export function takeOrArmEscape(
  store: MarkerStore,
  where: { tempFolder: string; sessionId: string; filePath: string; flavor: PathFlavor },
  now: number,
): EscapeOutcome {
  const marker = escapeMarkerPath(where.tempFolder, where.sessionId, where.filePath, where.flavor);
  const deniedAt = deniedAtOf(store.readText(marker), where.filePath);
  if (deniedAt !== null && now >= deniedAt && now - deniedAt <= escapeWindowMs) {
    // A marker that cannot be removed lets identical Reads through until it goes stale: failing
    // open for at most the window is the right side to err on.
    store.removeFile(marker);
    return { kind: 'pass', marker };
  }
  const text = `${JSON.stringify({ deniedAt: now, filePath: where.filePath })}\n`;
  return store.writeText(marker, text) ? { kind: 'armed', marker } : { kind: 'unwritable', marker };
}

function deniedAtOf(read: Outcome<string, TextFileProblem>, filePath: string): number | null {
  if (!read.ok) return null;
  try {
    const parsed: unknown = JSON.parse(read.value);
    if (typeof parsed !== 'object' || parsed === null) return null;
    const { deniedAt, filePath: markedPath } = parsed as Record<string, unknown>;
    return typeof deniedAt === 'number' && Number.isFinite(deniedAt) && markedPath === filePath
      ? deniedAt
      : null;
  } catch {
    return null;
  }
}

// A session id is host data: anything but a plain token is hashed so it can never climb out of
// the package's folder (`../..`) or carry a separator.
function sessionFolderName(sessionId: string): string {
  return /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}$/.test(sessionId)
    ? sessionId
    : `h-${sha256(sessionId).slice(0, 32)}`;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
