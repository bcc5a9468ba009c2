import { isAbsolute, resolve } from 'node:path';
import { type CommandLine, type Segment, shellScopeOf, type Word } from '@kit/shell-segments';
import type { HeadWord } from './git-global-options.ts';

/**
 * Where each segment of a walk runs: every command line's base directory, moved by the cds met
 * so far in the shell that holds the segment. Feed it the segments in the walk's order.
 */
export class DirectoryTracker {
  private readonly bases = new Map<CommandLine, string>();
  private readonly moves = new Map<CommandLine, DirectoryMove[]>();

  constructor(top: CommandLine, cwd: string) {
    this.bases.set(top, cwd);
  }

  /** A nested line starts where the segment that runs it runs. */
  startLine(line: CommandLine, base: string): void {
    this.bases.set(line, base);
  }

  /** The directory `segment` of `line` runs in; a cd it makes moves the segments after it. */
  enter(segment: Segment, line: CommandLine, head: Word[]): string {
    const lineMoves = this.moves.get(line) ?? [];
    this.moves.set(line, lineMoves);
    const directory = directoryOf(segment, this.bases.get(line) as string, lineMoves);
    const move = directoryMoveOf(
      segment,
      head.map((word) => word.value),
      head.map((word) => word.dynamic),
      directory,
    );
    if (move !== null) lineMoves.push(move);
    return directory;
  }
}

/** A `cd` that moves the directory of the segments after it in the same shell. */
interface DirectoryMove {
  scope: number; // id of the frame whose shell the cd changes
  index: number; // the cd segment's index
  to: string; // absolute
}

/**
 * The move a `cd <literal dir>` (or `pushd`) segment makes, or null: the directory must be a
 * literal word (no expansion, glob or tilde), and a cd in a pipeline stage or in the background
 * runs in a subshell and moves nothing. `head` is the segment's head after launchers.
 */
function directoryMoveOf(
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
function directoryOf(segment: Segment, base: string, moves: readonly DirectoryMove[]): string {
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
