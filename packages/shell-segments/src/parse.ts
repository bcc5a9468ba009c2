import { parseTree, resetParser } from './load-parser.ts';
import { byteToIndex, toWellFormed } from './offsets.ts';
import { Segmenter } from './segmenter.ts';
import { readTree } from './syntax-tree.ts';
import type { ParseOptions, ParseOutcome } from './types.ts';

/** The length limit when the caller sets none: 64 Ki characters. */
export const defaultMaxLength = 65536;

/** The caller's maxLength, checked: a bad option is the programmer's error, so it throws at once. */
export function readMaxLength(options: ParseOptions | undefined, caller: string): number {
  const maxLength = options?.maxLength ?? defaultMaxLength;
  if (typeof maxLength !== 'number' || !Number.isInteger(maxLength) || maxLength <= 0) {
    throw new TypeError(
      `${caller}: \`maxLength\` must be a positive integer, got ${String(maxLength)} (${typeof maxLength})`,
    );
  }
  return maxLength;
}

/**
 * Parses a bash command line into its segments (one per simple command). Never throws on the
 * command: a syntax error, an over-long or a non-string input is an outcome with `ok: false`.
 * Throws a TypeError only for a bad `options.maxLength`.
 */
export function parse(command: string, options?: ParseOptions): ParseOutcome {
  const maxLength = readMaxLength(options, 'parse');
  if (typeof command !== 'string') {
    return { ok: false, reason: 'not-text', message: `expected a string, got ${describeType(command)}` };
  }
  if (command.length > maxLength) {
    return {
      ok: false,
      reason: 'too-long',
      message: `${command.length} characters, over the limit of ${maxLength}`,
    };
  }
  try {
    const wellFormed = toWellFormed(command);
    let file: ReturnType<typeof parseTree>;
    try {
      file = parseTree(wellFormed);
    } catch (error) {
      return { ok: false, reason: 'syntax', message: describeParseError(error) };
    }
    const tree = readTree(file, byteToIndex(wellFormed));
    return { ok: true, segments: new Segmenter(command).segmentsOf(tree), source: command };
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

function describeError(error: unknown): string {
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
