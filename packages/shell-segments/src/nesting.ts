import { frameDepth } from './frame-depth.ts';
import { parseSegments } from './parse-segments.ts';
import { findNestedTexts, type NestedText } from './runners.ts';
import type { CommandLine, Nested, Runner, Segment, Statement } from './types.ts';

/** The limits nesting is read under. */
export interface NestingLimits {
  maxLength: number; // for each nested line's text
  maxNesting: number; // how many lines below the top are parsed
  maxTotalLength: number; // characters parsed over the whole tree, the top line's included
  maxLines: number; // command lines in the tree, the top one included
}

/**
 * Reads every command line nested in `top`, eagerly and to `limits.maxNesting` lines deep: each
 * becomes a child CommandLine in its runner line's `nested`, or a Nested with `ok: false` saying
 * why it has none (its text is only known at run time, does not parse, is too long, too deep).
 */
export function nestCommandLines(top: CommandLine, limits: NestingLimits): void {
  // A queue, not recursion: a deep `eval eval eval …` must not grow the stack.
  const queue: { line: CommandLine; depth: number }[] = [{ line: top, depth: 0 }];
  const budget = { left: limits.maxTotalLength - top.source.length, lines: limits.maxLines - 1 };
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    const { line, depth } = next;
    for (const segment of line.segments) {
      for (const found of findNestedTexts(segment, line)) {
        const { kind, form, start, end } = found;
        const runner: Runner = { line, segment, kind, form, start, end };
        const nested = readNested(runner, found, depth + 1, limits, budget);
        line.nested.push(nested);
        if (nested.ok) queue.push({ line: nested.line, depth: depth + 1 });
      }
    }
  }
}

function readNested(
  runner: Runner,
  found: NestedText,
  depth: number,
  limits: NestingLimits,
  budget: { left: number; lines: number },
): Nested {
  if (found.text === null) return { ok: false, runner, reason: 'dynamic', message: found.message };
  if (depth > limits.maxNesting) {
    return {
      ok: false,
      runner,
      reason: 'too-deep',
      message: `nested deeper than ${limits.maxNesting} command lines`,
    };
  }
  if (budget.lines <= 0) {
    return {
      ok: false,
      runner,
      reason: 'too-many',
      message: `more than ${limits.maxLines} command lines in the tree`,
    };
  }
  if (found.text.length > budget.left) {
    return {
      ok: false,
      runner,
      reason: 'too-long',
      message: `the command and its nested lines are over ${limits.maxTotalLength} characters in all`,
    };
  }
  budget.left -= found.text.length;
  budget.lines -= 1;
  const parsed = parseSegments(found.text, limits.maxLength);
  if (!parsed.ok) {
    // parseSegments is handed text only: 'not-text' cannot come back.
    const reason = parsed.reason === 'too-long' ? 'too-long' : 'syntax';
    return { ok: false, runner, reason, message: parsed.message };
  }
  const { value, statements } = parsed;
  const line: CommandLine = { source: found.text, segments: value, statements, runner, nested: [] };
  if (runner.form === 'as-written') {
    line.segments = actionSegments(value);
    const kept = value.filter((segment) => frameDepth(segment) === 0);
    line.statements = ownStatements(statements, new Map(kept.map((each, i) => [each, line.segments[i]])));
  }
  return { ok: true, line };
}

/** The statements of a line given as words, down to its own segments (see actionSegments). */
function ownStatements(statements: Statement[], own: ReadonlyMap<Segment, Segment | undefined>): Statement[] {
  return statements.flatMap((statement): Statement[] => {
    if (statement.kind === 'compound') return [];
    if (statement.kind === 'pipeline') {
      const stages = ownStatements(statement.stages, own).filter((stage) => stage.kind === 'simple');
      statement.stages = stages;
      return stages.length > 0 ? [statement] : [];
    }
    const segment = own.get(statement.segment);
    if (segment === undefined) return [];
    statement.segment = segment;
    statement.substitutions = [];
    return [statement];
  });
}

/**
 * The segments of a line given as words (a find action, BSD script's command): its own command
 * only. A substitution in its words (`-exec echo $(date) {} ;`) runs in the line above, once,
 * before find starts: it is a segment of that line already, and here only makes the word dynamic.
 */
function actionSegments(segments: Segment[]): Segment[] {
  return segments
    .filter((segment) => frameDepth(segment) === 0)
    .map((segment, index) => (segment.index === index ? segment : { ...segment, index }));
}
