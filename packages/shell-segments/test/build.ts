// Tiny builders for expected segment shapes, so that each expected list fits on one line.
import { headText } from '../src/launchers.ts';
import type { ListOp, ParseOutcome } from '../src/types.ts';

/** What the corpus asserts about a segment: its head, its list operator, its pipe place, its frames. */
export interface Shape {
  head: string;
  then: ListOp | null;
  pipe: string | null; // '0/2|' = stage 0 of 2, followed by |
  context: string; // frame kinds under the main list, outermost first: 'subshell>command-substitution'
  background: boolean;
  negated: boolean;
}

/** A command and the shapes of its segments, in document order. */
export interface Row {
  command: string;
  want: Shape[];
}

export const row = (command: string, ...want: Shape[]): Row => ({ command, want });
export const seg = (head: string, then: ListOp | null = null): Shape => ({
  head,
  then,
  pipe: null,
  context: '',
  background: false,
  negated: false,
});
export const piped = (index: number, size: number, op: '|' | '|&' | null, shape: Shape): Shape => ({
  ...shape,
  pipe: `${index}/${size}${op ?? ''}`,
});
export const inside = (context: string, shape: Shape): Shape => ({ ...shape, context });
export const bg = (shape: Shape): Shape => ({ ...shape, background: true });
export const neg = (shape: Shape): Shape => ({ ...shape, negated: true });

/** The shapes of an outcome's segments (or the failure, so a mismatch prints it). */
export function shapesOf(outcome: ParseOutcome): Shape[] | string {
  if (!outcome.ok) return `${outcome.reason}: ${outcome.message}`;
  return outcome.segments.map((segment) => ({
    head: headText(segment),
    then: segment.then,
    pipe: segment.pipeline
      ? `${segment.pipeline.index}/${segment.pipeline.size}${segment.pipeline.op ?? ''}`
      : null,
    context: segment.context
      .slice(1)
      .map((frame) => frame.kind)
      .join('>'),
    background: segment.background,
    negated: segment.negated,
  }));
}
