import { type NestingLimits, nestCommandLines } from './nesting.ts';
import { describeError, parseSegments } from './parse-segments.ts';
import type { CommandLine, ParseOptions, ParseOutcome } from './types.ts';

/** The limits when the caller sets none: 64 Ki characters, 8 command lines deep, no totals. */
const defaults: NestingLimits = {
  maxLength: 65536,
  maxNesting: 8,
  maxTotalLength: Number.POSITIVE_INFINITY,
  maxLines: Number.POSITIVE_INFINITY,
};

/**
 * Parses a bash command line into a tree of command lines: the top one, and every line a segment
 * runs (bash -c, eval, env -S, each find -exec action), read eagerly to `maxNesting` lines deep.
 * Never throws on the command: a syntax error, an over-long or a non-string input is an outcome
 * with `ok: false`; a nested line that cannot be read is a Nested with `ok: false` in its runner's
 * line. Throws a TypeError only for a bad `maxLength` or `maxNesting`, the programmer's error.
 */
export function parse(command: string, options?: ParseOptions): ParseOutcome {
  const limits = readLimits(options);
  const segments = parseSegments(command, limits.maxLength);
  if (!segments.ok) return segments;
  const top: CommandLine = {
    source: command,
    segments: segments.value,
    statements: segments.statements,
    runner: null,
    nested: [],
  };
  try {
    nestCommandLines(top, limits);
  } catch (error) {
    // A bug of ours while reading the nested lines: still a value, never a throw.
    return {
      ok: false,
      reason: 'syntax',
      message: `could not read the nested commands: ${describeError(error)}`,
    };
  }
  return { ok: true, value: top };
}

function readLimits(options: ParseOptions | undefined): NestingLimits {
  const maxLength = options?.maxLength ?? defaults.maxLength;
  if (typeof maxLength !== 'number' || !Number.isInteger(maxLength) || maxLength <= 0) {
    throw new TypeError(
      `parse: \`maxLength\` must be a positive integer, got ${String(maxLength)} (${typeof maxLength})`,
    );
  }
  const maxNesting = options?.maxNesting ?? defaults.maxNesting;
  if (typeof maxNesting !== 'number' || !Number.isInteger(maxNesting) || maxNesting < 0) {
    throw new TypeError(
      `parse: \`maxNesting\` must be a non-negative integer, got ${String(maxNesting)} (${typeof maxNesting})`,
    );
  }
  const maxTotalLength = options?.maxTotalLength ?? defaults.maxTotalLength;
  if (typeof maxTotalLength !== 'number' || Number.isNaN(maxTotalLength) || maxTotalLength <= 0) {
    throw new TypeError(
      `parse: \`maxTotalLength\` must be a positive number, got ${String(maxTotalLength)} (${typeof maxTotalLength})`,
    );
  }
  const maxLines = options?.maxLines ?? defaults.maxLines;
  if (typeof maxLines !== 'number' || Number.isNaN(maxLines) || maxLines < 1) {
    throw new TypeError(
      `parse: \`maxLines\` must be a number of at least 1, got ${String(maxLines)} (${typeof maxLines})`,
    );
  }
  return { maxLength, maxNesting, maxTotalLength, maxLines };
}
