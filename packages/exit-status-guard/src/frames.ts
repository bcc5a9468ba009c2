import type { Context, ListOp, Placement, Segment } from '@kit/shell-segments';
import type { Unit } from './unit.ts';

/** Frames that hold their own statements inside one segment's words: not statements of the list around them. */
const substitutionKinds = new Set([
  'command-substitution',
  'backticks',
  'process-substitution',
  'arithmetic',
]);

/** A statement of a list: a simple command (one segment) or a compound one (a frame). */
export type Item =
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
export function segmentItem(segment: Segment): Item {
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
export function frameItem(frame: Context, placement: Placement): Item {
  return { kind: 'frame', frame, start: frame.start, end: frame.end, then: placement.then, placement };
}

/** True when no statement of the frame at `parentLevel` of the chain starts after `frame` ends. */
export function isLastIn(unit: Unit, frame: Context, parent: Context): boolean {
  for (const segment of unit.segments) {
    if (segment.start < frame.end) continue;
    if (segment.context.some((outer) => outer.id === parent.id)) return false;
  }
  return true;
}

/**
 * The statements directly in a frame, in order: its own segments, and one item per compound frame
 * nested right under it (an `if` gives one item per part). Substitutions belong to their segment.
 */
export function itemsOf(unit: Unit, frame: Context): Item[] {
  const items: Item[] = [];
  const seen = new Set<number>();
  for (const segment of unit.segments) {
    const at = segment.context.findIndex((outer) => outer.id === frame.id);
    if (at < 0) continue;
    const child = segment.context[at + 1];
    if (child === undefined) {
      items.push(segmentItem(segment));
      continue;
    }
    if (substitutionKinds.has(child.kind) || child.placement === null || seen.has(child.id)) continue;
    seen.add(child.id);
    items.push(frameItem(child, child.placement));
  }
  return items.sort((a, b) => a.start - b.start);
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
export function statusExit(unit: Unit, segment: Segment): { then: ListOp | null; statement: Item } {
  let then = segment.then;
  let statement = segmentItem(segment);
  let last = segment.last;
  for (let i = segment.context.length - 1; i > 0 && last; i--) {
    const frame = segment.context[i] as Context;
    if (!carryingKinds.has(frame.kind) || frame.placement === null) break;
    then = frame.placement.then;
    statement = frameItem(frame, frame.placement);
    last = isLastIn(unit, frame, segment.context[i - 1] as Context);
  }
  return { then, statement };
}
