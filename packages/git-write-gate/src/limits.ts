import { type CommandLine, listLines } from '@kit/shell-segments';

/**
 * How much of a command the gate reads, so that the worst command it accepts answers well within
 * the hook runtime's budget on a loaded machine (measured in the README). Past any limit the
 * command cannot be judged, and the reason names the limit.
 */
export const limits = {
  maxLength: 16384, // characters of the command, and of each nested line
  maxTotalLength: 32768, // characters parsed over the whole tree: the command and every nested line
  maxNesting: 8, // command lines below the top (`eval "eval …"`, `bash -c '…'`)
  maxLines: 64, // command lines in the tree: each nested one is a parse of its own
  maxSegments: 600, // simple commands, over every line of the tree
  maxWords: 6000, // words of those commands
  maxFrames: 64, // frames around one segment (`( ( ( … ) ) )`, `$( $( … ) )`)
  maxVisits: 20000, // segment visits of the shell flow (loops and function calls revisit)
  maxCalls: 8, // function calls deep
  maxLoopRounds: 4, // rounds of a loop before where it is becomes "somewhere"
} as const;

/** The structural limit a parsed command is over, as a reason's words; null when it is within all. */
export function overStructureLimit(top: CommandLine): string | null {
  let segments = 0;
  let words = 0;
  for (const line of listLines(top)) {
    segments += line.segments.length;
    if (segments > limits.maxSegments) return `more than ${limits.maxSegments} simple commands`;
    for (const segment of line.segments) {
      words += segment.argv.length + segment.assigns.length + segment.redirects.length;
      if (segment.context.length > limits.maxFrames)
        return `commands nested more than ${limits.maxFrames} frames deep`;
    }
    if (words > limits.maxWords) return `more than ${limits.maxWords} words`;
  }
  return null;
}
