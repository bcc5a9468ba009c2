import { nestCommandLines } from './nesting.ts';
import { describeError, parseSegments } from './parse-segments.ts';
import type {
  CommandLine,
  CommandLineOptions,
  CommandLineOutcome,
  ParseOptions,
  ParseOutcome,
} from './types.ts';

/** The length limit when the caller sets none: 64 Ki characters. */
export const defaultMaxLength = 65536;

/** The caller's maxLength, checked: a bad option is the programmer's error, so it throws at once. */
export function readMaxLength(
  options: ParseOptions | CommandLineOptions | undefined,
  caller: string,
): number {
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
  const outcome = parseSegments(command, maxLength);
  return outcome.ok ? { ok: true, segments: outcome.value, source: command } : outcome;
}

/** How many lines deep nesting is read when the caller sets no limit. */
export const defaultMaxNesting = 8;

/**
 * Parses a bash command line into a tree of command lines: the top one, and every line a segment
 * runs (bash -c, eval, env -S, each find -exec action), read eagerly to `maxNesting` lines deep.
 * Never throws on the command: a syntax error, an over-long or a non-string input is an outcome
 * with `ok: false`; a nested line that cannot be read is a Nested with `ok: false` in its runner's
 * line. Throws a TypeError only for a bad option.
 */
export function parseCommandLine(command: string, options?: CommandLineOptions): CommandLineOutcome {
  const maxLength = readMaxLength(options, 'parse');
  const maxNesting = options?.maxNesting ?? defaultMaxNesting;
  if (typeof maxNesting !== 'number' || !Number.isInteger(maxNesting) || maxNesting < 0) {
    throw new TypeError(
      `parse: \`maxNesting\` must be a non-negative integer, got ${String(maxNesting)} (${typeof maxNesting})`,
    );
  }
  const segments = parseSegments(command, maxLength);
  if (!segments.ok) return segments;
  const top: CommandLine = { source: command, segments: segments.value, runner: null, nested: [] };
  try {
    nestCommandLines(top, { maxLength, maxNesting });
  } catch (error) {
    return {
      ok: false,
      reason: 'syntax',
      message: `could not read the nested commands: ${describeError(error)}`,
    };
  }
  return { ok: true, value: top };
}
