import type { CommandLine, Nested, Segment } from './types.ts';

/** One segment as the walk meets it. */
export interface SegmentVisit {
  segment: Segment;
  line: CommandLine; // the line the segment is one of
  shells: readonly CommandLine[]; // the lines from the top down to `line`, outermost first, `line` last
}

/** The command lines a segment runs (bash -c, eval, env -S, find -exec), in the order they stand. */
export function nestedRunBy(line: CommandLine, segment: Segment): Nested[] {
  let bySegment = runBy.get(line);
  if (bySegment === undefined) {
    // Indexed once per line: a walk asks for every segment, and a line may run thousands.
    bySegment = new Map();
    for (const nested of line.nested) {
      const runner = nested.ok ? nested.line.runner?.segment : nested.runner.segment;
      if (runner === undefined) continue;
      const list = bySegment.get(runner);
      if (list === undefined) bySegment.set(runner, [nested]);
      else list.push(nested);
    }
    runBy.set(line, bySegment);
  }
  return [...(bySegment.get(segment) ?? [])];
}

// The nested lines of each parsed line, by the segment that runs them (a parsed tree does not change).
const runBy = new WeakMap<CommandLine, Map<Segment, Nested[]>>();

/**
 * Every segment at every depth: the top line's segments in document order, each followed at once
 * by the segments of the lines it runs (depth first), before the next segment of its own line.
 * Nested lines that could not be read are not walked: find them with nestedRunBy.
 */
export function* walkSegments(top: CommandLine): Generator<SegmentVisit, void, undefined> {
  // An explicit stack, not recursion: a line nests as deep as the caller's maxNesting allows.
  const stack: { line: CommandLine; shells: CommandLine[]; at: number }[] = [
    { line: top, shells: [top], at: 0 },
  ];
  for (let frame = stack.at(-1); frame !== undefined; frame = stack.at(-1)) {
    const segment = frame.line.segments[frame.at];
    if (segment === undefined) {
      stack.pop();
      continue;
    }
    frame.at += 1;
    yield { segment, line: frame.line, shells: frame.shells };
    const children = nestedRunBy(frame.line, segment).flatMap((nested) => (nested.ok ? [nested.line] : []));
    for (const child of children.reverse())
      stack.push({ line: child, shells: [...frame.shells, child], at: 0 });
  }
}

/** Every command line of the tree, in the walk's order: the top line first, then depth first. */
export function listLines(top: CommandLine): CommandLine[] {
  const lines: CommandLine[] = [];
  const stack = [top];
  for (let line = stack.pop(); line !== undefined; line = stack.pop()) {
    lines.push(line);
    const children = line.nested.flatMap((nested) => (nested.ok ? [nested.line] : []));
    stack.push(...children.reverse());
  }
  return lines;
}
