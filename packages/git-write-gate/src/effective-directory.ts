import { isAbsolute, resolve } from 'node:path';
import { type Segment, shellScopeOf } from '@kit/shell-segments';
import type { HeadWord } from './git-global-options.ts';

/** A `cd` that moves the directory of the segments after it in the same shell. */
export interface DirectoryMove {
  scope: number; // id of the frame whose shell the cd changes
  index: number; // the cd segment's index
  to: string; // absolute
}

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
  // A cd in a pipeline stage or in the background runs in a subshell: it moves nothing after it.
  const scope = shellScopeOf(segment);
  return scope === null ? null : { scope: scope.id, index: segment.index, to: resolve(from, target) };
}

/** The directory a segment runs in: `base`, moved by every earlier cd whose shell holds the segment. */
export function directoryOf(segment: Segment, base: string, moves: readonly DirectoryMove[]): string {
  const frames = new Set(segment.context.map((frame) => frame.id));
  let directory = base;
  for (const move of moves) if (move.index < segment.index && frames.has(move.scope)) directory = move.to;
  return directory;
}

/** `git -C a -C b`, `env -C a`: each literal directory applies after the previous one; an empty one is a no-op; an expansion is skipped. */
export function applyDirectoryChanges(from: string, directories: readonly HeadWord[]): string {
  let directory = from;
  for (const next of directories) {
    if (next === null || next === '') continue;
    directory = isAbsolute(next) ? next : resolve(directory, next);
  }
  return directory;
}
