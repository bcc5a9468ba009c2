import { resetParser } from './load-parser.ts';
import { byteToIndex, toWellFormed } from './offsets.ts';
import { Segmenter } from './segmenter.ts';
import { parseTreeWithPrefixes, restoreSubscriptedPrefixes } from './subscripted-prefixes.ts';
import { readTree } from './syntax-tree.ts';
import { replaceSegments } from './statement-tree.ts';
import type { ParseOutcome, Segment, Statement } from './types.ts';

/** The segments of one command line's text and its statement tree, or why there are none; never throws. */
export function parseSegments(
  text: string,
  maxLength: number,
): { ok: true; value: Segment[]; statements: Statement[] } | (ParseOutcome & { ok: false }) {
  if (typeof text !== 'string') {
    return { ok: false, reason: 'not-text', message: `expected a string, got ${describeType(text)}` };
  }
  if (text.length > maxLength) {
    return {
      ok: false,
      reason: 'too-long',
      message: `${text.length} characters, over the limit of ${maxLength}`,
    };
  }
  try {
    const wellFormed = toWellFormed(text);
    let parsed: ReturnType<typeof parseTreeWithPrefixes>;
    try {
      parsed = parseTreeWithPrefixes(wellFormed);
    } catch (error) {
      return { ok: false, reason: 'syntax', message: describeParseError(error) };
    }
    const tree = readTree(parsed.tree, byteToIndex(wellFormed));
    const { segments, statements } = new Segmenter(text).segmentsOf(tree);
    const restored = restoreSubscriptedPrefixes(segments, parsed.masked, text);
    if (restored !== segments)
      replaceSegments(statements, new Map(segments.map((segment, i) => [segment, restored[i] as Segment])));
    return { ok: true, value: restored, statements };
  } catch (error) {
    // Not a syntax error: the parser or the walker failed (a stack overflow on deep nesting, a bug).
    // Still a value, and the next call starts from a fresh parser.
    resetParser();
    return { ok: false, reason: 'syntax', message: `could not segment the command: ${describeError(error)}` };
  }
}

function describeParseError(error: unknown): string {
  // mvdan-sh throws its Go error value: Error() renders "line:col: text".
  const render = (error as { Error?: unknown } | null)?.Error;
  if (typeof render === 'function') {
    try {
      return String(render.call(error));
    } catch {
      // fall through to the generic rendering
    }
  }
  return describeError(error);
}

/** An error as one line of text, whatever was thrown. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  try {
    return String(error);
  } catch {
    return 'unknown error';
  }
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}
