import type { Context, ContextKind, Placement } from './types.ts';

// Frames whose commands run in a shell of their own (a function body: its own scope for the kit's
// purposes, since whether and where it is called is not known).
const ownShell = new Set<ContextKind>([
  'subshell',
  'command-substitution',
  'backticks',
  'process-substitution',
  'arithmetic',
  'function-body',
]);

/** True when a statement runs in a subshell because of where it stands: a stage of a real pipeline, or `&`. */
function runsApart(placement: Pick<Placement, 'pipeline' | 'background'> | null): boolean {
  return (
    placement !== null &&
    (placement.background || (placement.pipeline !== null && placement.pipeline.size > 1))
  );
}

/**
 * The frame whose shell a builtin in this segment changes (`cd`, `set -o pipefail`, an assignment):
 * the innermost subshell, substitution or function body around it, or a compound command that is
 * piped or backgrounded as a whole; its line's main list otherwise (a nested line's main is its own
 * shell: bash -c 'cd x' changes nothing outside the string). null when the segment itself runs
 * apart (a pipeline stage, or `&`): what it changes reaches nothing after it.
 */
export function shellScopeOf(
  segment: { context: Context[] } & Pick<Placement, 'pipeline' | 'background'>,
): Context | null {
  if (runsApart(segment)) return null;
  for (let at = segment.context.length - 1; at > 0; at -= 1) {
    const frame = segment.context[at] as Context;
    if (ownShell.has(frame.kind) || runsApart(frame.placement)) return frame;
  }
  return segment.context[0] ?? null;
}
