import { type CommandLine, listLines } from '@kit/shell-segments';

/**
 * How much of a command the gate reads (spec step 7). The bound is the input's size: a command up
 * to 64 KiB is judged like any other line, whatever it holds (a 20 KB commit message, a `git add`
 * of a thousand files, a hundred nested groups); past it, it cannot be judged. Every simple
 * command, word and frame takes at least one character of the command, so the counts below only
 * restate that bound (a nested line is a part of its parent, so the tree holds at most the command
 * once per depth). What is not size is work: the shell flow revisits a loop's body and a called
 * function's, so its visits have a bound of their own, far past any real command's.
 */
export const limits = {
  maxLength: 65536, // characters of the command, and of each nested line
  maxTotalLength: 589824, // characters parsed over the whole tree: at most the command (64 KiB) at each of 9 depths
  maxNesting: 8, // command lines below the top (`eval "eval …"`, `bash -c '…'`)
  maxLines: 65536, // command lines in the tree: each takes a character of its parent at least
  maxFrames: 65536, // frames around one segment (`( ( ( … ) ) )`, `$( $( … ) )`): one character each at least
  maxVisits: 262144, // 4 × 64 Ki segment visits of the shell flow (loops and function calls revisit)
  maxCalls: 8, // function calls deep
  maxLoopRounds: 4, // rounds of a loop before where it is becomes "somewhere"
} as const;

/** The structural limit a parsed command is over, as a reason's words; null when it is within all. */
export function overStructureLimit(top: CommandLine): string | null {
  for (const line of listLines(top))
    for (const segment of line.segments)
      if (segment.context.length > limits.maxFrames)
        return `commands nested more than ${limits.maxFrames} frames deep`;
  return null;
}
