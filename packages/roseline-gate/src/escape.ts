import { createHash } from 'node:crypto';
import type { Outcome, TextFileProblem } from '@kit/fail-open';
import type { PathFlavor } from './csharp-path.ts';

/** How long after a denial the identical Read passes: two minutes. */
export const escapeWindowMs = 120_000;

/**
 * How long the identical Reads must have been quiet before one can take the escape: a second. Reads
 * sent together (parallel tool calls, run in batches) reach the gate moments apart, and none of
 * them can be the retry of a denial the model has not seen yet; a retry comes a model turn later.
 */
export const escapeQuietMs = 1_000;

/** A marker as read from disk: its text and when it was last touched (its modification time). */
export interface MarkerRead {
  text: string;
  touchedAt: number; // ms since the epoch, whole
}

/**
 * The file probes the escape store needs; each reports failure as a value, never a throw. Every
 * change is atomic, so concurrent hooks of the same session agree on who took the escape, and each
 * write stamps the marker with the time it happens (the store's clock, not one read earlier).
 */
export interface MarkerStore {
  readMarker: (file: string) => Outcome<MarkerRead, TextFileProblem>; // absent, or unreadable
  // An exclusive create, folders made on the way: exactly one caller gets 'created'.
  createMarker: (file: string, text: string) => 'created' | 'exists' | 'failed';
  replaceMarker: (file: string, text: string) => boolean; // a whole new file renamed over it
  // Renamed away under a unique name, then read and removed: exactly one caller gets it.
  claimMarker: (file: string) => Outcome<MarkerRead, 'gone' | 'failed'>;
  touchMarker: (file: string) => void; // stamps it now; a marker gone meanwhile is fine
}

/** What the escape store says about one Read that is otherwise denied. */
export type EscapeOutcome =
  | { kind: 'pass'; marker: string } // an identical Read was denied within the window: let this one through, once
  | { kind: 'armed'; marker: string } // deny; a marker is there for the next identical Read, a quiet second later
  | { kind: 'unwritable'; marker: string }; // the marker could not be written: no escape could exist, so no opinion

/** The fields of a Read's input that make two Reads the identical Read. */
export interface ReadIdentity {
  file_path: string; // as the host sent it
  offset?: unknown; // the first line asked for
  limit?: unknown; // how many lines
  pages?: unknown; // a PDF's pages
}

/**
 * The key of one Read for the escape: the path as sent and the part of the file asked for. An
 * absent field and `null` are the same. Other input fields are left out on purpose: a field the host
 * adds later, or one it fills per call, must not make every retry a different Read.
 */
export function readIdentity(read: ReadIdentity): string {
  return JSON.stringify([read.file_path, read.offset ?? null, read.limit ?? null, read.pages ?? null]);
}

/** The folder holding one session's markers: `<temp>/roseline-gate/<session>`. */
export function sessionMarkerFolder(tempFolder: string, sessionId: string, flavor: PathFlavor): string {
  return flavor.join(tempFolder, 'roseline-gate', sessionFolderName(sessionId));
}

/** The marker file of one Read: the session folder plus a hash of the Read's `readIdentity`. */
export function escapeMarkerPath(
  tempFolder: string,
  sessionId: string,
  identity: string,
  flavor: PathFlavor,
): string {
  return flavor.join(
    sessionMarkerFolder(tempFolder, sessionId, flavor),
    `${sha256(identity).slice(0, 32)}.json`,
  );
}

/**
 * Takes the escape (the Read passes) or leaves a marker for it (the Read is denied). The escape is
 * a marker armed by a denial of the identical Read within the window, untouched for a quiet second
 * before the host made this call: exactly one caller can claim it. A Read called within that second
 * of the marker's last touch (or before it) is part of a burst: denied, and it touches the marker,
 * so the burst stays one. The burst is judged by `calledAt`, when the host made the call, never by
 * when the judge runs: a Read of the burst answered seconds late (in process, after its front gave
 * up on the verdict server) is still of the burst. A marker that is stale, from the future,
 * unreadable or for another Read counts as none: the Read is denied and a new marker armed.
 * `identity` is the Read's `readIdentity`; `clock` is read afresh for each decision.
 */
export function takeOrArmEscape(
  store: MarkerStore,
  where: { tempFolder: string; sessionId: string; identity: string; flavor: PathFlavor; calledAt: number },
  clock: () => number,
): EscapeOutcome {
  const marker = escapeMarkerPath(where.tempFolder, where.sessionId, where.identity, where.flavor);
  const armed: EscapeOutcome = { kind: 'armed', marker };
  const unwritable: EscapeOutcome = { kind: 'unwritable', marker };
  const textNow = () => `${JSON.stringify({ deniedAt: clock(), identity: where.identity })}\n`;
  const arm = (): EscapeOutcome => {
    const created = store.createMarker(marker, textNow());
    // 'exists': armed by a Read of this very moment, so this one belongs to the same burst.
    if (created === 'exists') store.touchMarker(marker);
    return created === 'failed' ? unwritable : armed;
  };
  const rearm = (): EscapeOutcome => (store.replaceMarker(marker, textNow()) ? armed : unwritable);

  // The clock is read after the file: a hook held up in between judges the marker older, never younger.
  const seen = store.readMarker(marker);
  if (!seen.ok) return seen.reason === 'absent' ? arm() : rearm();
  if (!isQuiet(seen.value, where.calledAt)) {
    store.touchMarker(marker);
    return armed;
  }
  if (!isClaimable(seen.value, where.identity, clock())) return rearm();
  const claimed = store.claimMarker(marker);
  // What was taken is judged again: a touch between the read and the claim is in the file taken.
  if (
    claimed.ok &&
    isQuiet(claimed.value, where.calledAt) &&
    isClaimable(claimed.value, where.identity, clock())
  )
    return { kind: 'pass', marker };
  // Another Read claimed it first (gone), or what this one took was armed or touched a moment ago:
  // either way this Read comes after a pass or within a burst, and is denied.
  return arm();
}

function isQuiet(read: MarkerRead, calledAt: number): boolean {
  // A touch after the call was made (a Read of the burst judged late, or a clock set back) is not quiet.
  return calledAt - read.touchedAt >= escapeQuietMs;
}

function isClaimable(read: MarkerRead, identity: string, now: number): boolean {
  const deniedAt = deniedAtOf(read.text, identity);
  return deniedAt !== null && now >= deniedAt && now - deniedAt <= escapeWindowMs;
}

function deniedAtOf(text: string, identity: string): number | null {
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null) return null;
    const { deniedAt, identity: markedIdentity } = parsed as Record<string, unknown>;
    return typeof deniedAt === 'number' && Number.isFinite(deniedAt) && markedIdentity === identity
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
