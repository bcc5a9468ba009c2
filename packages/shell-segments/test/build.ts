// Tiny builders for expected segment shapes, so that each expected list fits on one line.
import { headText } from '../src/launchers.ts';
import type { CommandLine, ListOp, NestedKind, ParseOutcome } from '../src/types.ts';

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
  return outcome.value.segments.map((segment) => ({
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

/** What the nesting tests assert about a command line: its source, its runner, the lines it runs. */
export interface LineShape {
  source: string;
  runner: string | null; // 'shell-string@1' = the kind, and the index of the running segment in the line above
  nested: (LineShape | string)[]; // a line, or 'eval@0 dynamic' for one that could not be read
}

export const top = (source: string, ...nested: (LineShape | string)[]): LineShape => ({
  source,
  runner: null,
  nested,
});
export const child = (
  runner: `${NestedKind}@${number}`,
  source: string,
  ...nested: (LineShape | string)[]
): LineShape => ({ source, runner, nested });
export const unread = (runner: `${NestedKind}@${number}`, reason: string): string => `${runner} ${reason}`;

/** The shape of a command line and of every line nested in it. */
export function lineShapeOf(line: CommandLine): LineShape {
  const runner = line.runner && `${line.runner.kind}@${line.runner.segment.index}`;
  return {
    source: line.source,
    runner,
    nested: line.nested.map((nested) =>
      nested.ok
        ? lineShapeOf(nested.line)
        : `${nested.runner.kind}@${nested.runner.segment.index} ${nested.reason}`,
    ),
  };
}
