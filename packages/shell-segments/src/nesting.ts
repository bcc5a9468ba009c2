import { frameDepth } from './frame-depth.ts';
import { parseSegments } from './parse-segments.ts';
import { findNestedTexts, type NestedText } from './runners.ts';
import type { CommandLine, Nested, Runner, Segment } from './types.ts';

/** The limits nesting is read under. */
export interface NestingLimits {
  maxLength: number; // for each nested line's text
  maxNesting: number; // how many lines below the top are parsed
}

/**
 * Reads every command line nested in `top`, eagerly and to `limits.maxNesting` lines deep: each
 * becomes a child CommandLine in its runner line's `nested`, or a Nested with `ok: false` saying
 * why it has none (its text is only known at run time, does not parse, is too long, too deep).
 */
export function nestCommandLines(top: CommandLine, limits: NestingLimits): void {
  // A queue, not recursion: a deep `eval eval eval …` must not grow the stack.
  const queue: { line: CommandLine; depth: number }[] = [{ line: top, depth: 0 }];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    const { line, depth } = next;
    for (const segment of line.segments) {
      for (const found of findNestedTexts(segment, line.source)) {
        const runner: Runner = { line, segment, kind: found.kind, start: found.start, end: found.end };
        const nested = readNested(runner, found, depth + 1, limits);
        line.nested.push(nested);
        if (nested.ok) queue.push({ line: nested.line, depth: depth + 1 });
      }
    }
  }
}

function readNested(runner: Runner, found: NestedText, depth: number, limits: NestingLimits): Nested {
  if (found.text === null) return { ok: false, runner, reason: 'dynamic', message: found.message };
  if (depth > limits.maxNesting) {
    return {
      ok: false,
      runner,
      reason: 'too-deep',
      message: `nested deeper than ${limits.maxNesting} command lines`,
    };
  }
  const parsed = parseSegments(found.text, limits.maxLength);
  if (!parsed.ok) {
    // parseSegments is handed text only: 'not-text' cannot come back.
    const reason = parsed.reason === 'too-long' ? 'too-long' : 'syntax';
    return { ok: false, runner, reason, message: parsed.message };
  }
  const segments = runner.kind === 'find-exec' ? actionSegments(parsed.value) : parsed.value;
  return { ok: true, line: { source: found.text, segments, runner, nested: [] } };
}

/**
 * The segments of a find action's line: its own command only. A substitution in its words
 * (`-exec echo $(date) {} ;`) runs in the line above, once, before find starts: it is a segment
 * of that line already, and here only makes the word dynamic.
 */
function actionSegments(segments: Segment[]): Segment[] {
  return segments
    .filter((segment) => frameDepth(segment) === 0)
    .map((segment, index) => (segment.index === index ? segment : { ...segment, index }));
}
