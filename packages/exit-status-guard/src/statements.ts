import type { Context, ListOp, Placement, Segment } from '@kit/shell-segments';
import type { Shell } from './shell.ts';

/** Frames that hold their own statements inside one segment's words: not statements of the list around them. */
const substitutionKinds = new Set([
  'command-substitution',
  'backticks',
  'process-substitution',
  'arithmetic',
]);

/** A statement of a list: a simple command (one segment) or a compound one (a frame with its placement). */
export type Statement =
  | {
      kind: 'segment';
      segment: Segment;
      start: number;
      end: number;
      then: ListOp | null;
      placement: Placement;
    }
  | { kind: 'frame'; frame: Context; start: number; end: number; then: ListOp | null; placement: Placement };

/** A simple command as a statement. */
export function segmentStatement(segment: Segment): Statement {
  return {
    kind: 'segment',
    segment,
    start: segment.start,
    end: segment.end,
    then: segment.then,
    placement: segment,
  };
}

/** A compound command (a frame with its own placement) as a statement. */
export function compoundStatement(frame: Context, placement: Placement): Statement {
  return { kind: 'frame', frame, start: frame.start, end: frame.end, then: placement.then, placement };
}

/** The kind of a statement: `segment`, or its compound's frame kind (`subshell`, `group`, `if-body`…). */
export function statementKind(statement: Statement): string {
  return statement.kind === 'segment' ? 'segment' : statement.frame.kind;
}

/** True when no statement of `parent` starts after `frame` ends. */
export function isLastIn(shell: Shell, frame: Context, parent: Context): boolean {
  for (const segment of shell.segments) {
    if (segment.start < frame.end) continue;
    if (segment.context.some((outer) => outer.id === parent.id)) return false;
  }
  return true;
}

/**
 * The statements directly in a frame, in order: its own segments, and one statement per compound
 * frame nested right under it (an `if` gives one per part). Substitutions belong to their segment.
 */
export function statementsIn(shell: Shell, frame: Context): Statement[] {
  const statements: Statement[] = [];
  const seen = new Set<number>();
  for (const segment of shell.segments) {
    const at = segment.context.findIndex((outer) => outer.id === frame.id);
    if (at < 0) continue;
    const child = segment.context[at + 1];
    if (child === undefined) {
      statements.push(segmentStatement(segment));
      continue;
    }
    if (substitutionKinds.has(child.kind) || child.placement === null || seen.has(child.id)) continue;
    seen.add(child.id);
    statements.push(compoundStatement(child, child.placement));
  }
  return statements.sort((a, b) => a.start - b.start);
}

/** The compound kinds whose status is the status of their last statement. */
const carryingKinds = new Set([
  'subshell',
  'group',
  'if-body',
  'else-body',
  'case-body',
  'for-body',
  'while-body',
  'until-body',
]);

/**
 * Where a segment's status goes once it leaves the segment: up through every compound it ends
 * ("closing every group it sits in"), to the list operator that follows the outermost one.
 */
export function statusExit(shell: Shell, segment: Segment): { then: ListOp | null; statement: Statement } {
  let then = segment.then;
  let statement = segmentStatement(segment);
  let last = segment.last;
  for (let i = segment.context.length - 1; i > 0 && last; i--) {
    const frame = segment.context[i] as Context;
    if (!carryingKinds.has(frame.kind) || frame.placement === null) break;
    then = frame.placement.then;
    statement = compoundStatement(frame, frame.placement);
    last = isLastIn(shell, frame, segment.context[i - 1] as Context);
  }
  return { then, statement };
}

/** The top-level statement a segment sits in. */
export function topStatement(shell: Shell, segment: Segment): Statement {
  const main = segment.context[0] as Context;
  const child = segment.context[1];
  if (child === undefined) return segmentStatement(segment);
  const found = statementsIn(shell, main).find(
    (statement) => statement.kind === 'frame' && statement.frame.id === child.id,
  );
  if (found) return found;
  // Inside a substitution of a top-level segment: that segment is the statement.
  const owner = statementsIn(shell, main).find(
    (statement) => statement.start <= segment.start && statement.end >= segment.end,
  );
  return owner ?? statusExit(shell, segment).statement;
}
