import { isAbsolute, resolve } from 'node:path';
import type { Context, Segment } from '@kit/shell-segments';
import type { HeadWord } from './git-global-options.ts';

/** A `cd` that moves the directory of the segments after it in the same shell. */
export interface DirectoryMove {
  scope: number; // id of the frame whose shell the cd changes
  index: number; // the cd segment's index
  to: string; // absolute
}

// Frames that run in a shell of their own (or, for a function body, only when called): a cd
// inside one leaves the directory of everything outside it where it was.
const ownShell = new Set<Context['kind']>([
  'main',
  'subshell',
  'command-substitution',
  'backticks',
  'process-substitution',
  'nested',
  'function-body',
  'arithmetic',
]);

/**
 * The move a `cd <literal dir>` (or `pushd`) segment makes, or null: the directory must be a
 * literal word (no expansion, glob or tilde), and a cd in a pipeline stage or in the background
 * runs in a subshell and moves nothing. `head` is the segment's head after launchers.
 */
export function directoryMoveOf(
  segment: Segment,
  head: HeadWord[],
  dynamic: boolean[],
  from: string,
): DirectoryMove | null {
  if (head[0] !== 'cd' && head[0] !== 'pushd') return null;
  let at = 1;
  while (at < head.length && /^-[LPe@]+$/.test(head[at] ?? '')) at += 1;
  if (head[at] === '--') at += 1;
  const target = head[at];
  if (target === undefined || target === null || dynamic[at] === true || target === '-' || target === '')
    return null;
  if (isInSubshellStage(segment)) return null;
  const scope = shellFrameOf(segment);
  return scope === null ? null : { scope, index: segment.index, to: resolve(from, target) };
}

function isInSubshellStage(placed: { pipeline: { size: number } | null; background: boolean }): boolean {
  return (placed.pipeline !== null && placed.pipeline.size > 1) || placed.background;
}

/** The id of the innermost frame with a shell of its own, or null when a compound around the segment runs in a subshell. */
function shellFrameOf(segment: Segment): number | null {
  for (let at = segment.context.length - 1; at >= 0; at -= 1) {
    const frame = segment.context[at];
    if (frame === undefined) return null;
    if (ownShell.has(frame.kind)) return frame.id;
    if (frame.placement !== null && isInSubshellStage(frame.placement)) return null;
  }
  return null;
}

/** The directory a segment runs in: `base`, moved by every earlier cd whose shell holds the segment. */
export function directoryOf(segment: Segment, base: string, moves: readonly DirectoryMove[]): string {
  const frames = new Set(segment.context.map((frame) => frame.id));
  let directory = base;
  for (const move of moves) if (move.index < segment.index && frames.has(move.scope)) directory = move.to;
  return directory;
}

/** `git -C a -C b`: each literal `-C` applies after the previous one; an empty one is a no-op; an expansion is skipped. */
export function applyGitDirectories(from: string, directories: readonly HeadWord[]): string {
  let directory = from;
  for (const next of directories) {
    if (next === null || next === '') continue;
    directory = isAbsolute(next) ? next : resolve(directory, next);
  }
  return directory;
}
