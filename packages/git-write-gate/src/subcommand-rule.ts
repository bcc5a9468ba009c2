import type { HeadWord } from './git-global-options.ts';
import { type GlobReading, isWholeTreePathspec, type PathspecBase } from './pathspec.ts';
import { type ArgToken, isNegated, isOption, type OptionSpec } from './subcommand-options.ts';
import type { WriteKind } from './write-kind.ts';

/** What a subcommand's rule reads besides its arguments: git's global options, and where pathspecs resolve. */
export interface SubcommandSetting {
  directories: HeadWord[];
  configs: HeadWord[];
  configured: boolean; // config handed in the environment (GIT_CONFIG_COUNT=…)
  base: PathspecBase | null;
  globs: GlobReading;
}

/** A rule's answer: the write it makes, why it cannot be judged, or null for no write. */
export type Verdictish = { write: WriteKind } | { unknown: string } | null;

export type SubcommandRule = (tokens: ArgToken[], setting: SubcommandSetting) => Verdictish;

/** One judged subcommand: how its options read, and its rule. */
export interface Subcommand {
  options: OptionSpec;
  rule: SubcommandRule;
}

/**
 * The state of a boolean option after its last `--x` / `--no-x` (any of `names`, short or long):
 * parse-options lets the last one win.
 */
export function lastFlag(tokens: ArgToken[], names: string[]): boolean {
  let state = false;
  for (const token of tokens) {
    if (isOption(token, ...names)) state = true;
    else if (isNegated(token, ...names)) state = false;
  }
  return state;
}

/** A discard when an operand is a whole-tree pathspec; cannot judge when the pathspecs come from a file. */
export function wholeTreeOperand(tokens: ArgToken[], { base, globs }: SubcommandSetting): Verdictish {
  if (tokens.some((token) => isOption(token, '--pathspec-from-file')))
    return { unknown: 'the pathspecs come from a file (--pathspec-from-file)' };
  return tokens.some((token) => token.kind === 'operand' && isWholeTreePathspec(token.value, base, globs))
    ? { write: 'discard' }
    : null;
}

export function hasDynamic(tokens: ArgToken[]): boolean {
  return tokens.some((token) => token.kind === 'dynamic');
}

/** `write` when `written`; else cannot judge when an expansion could be what makes it one (`what`). */
export function writeOrDynamic(
  written: boolean,
  write: WriteKind,
  tokens: ArgToken[],
  what: string,
): Verdictish {
  if (written) return { write };
  return hasDynamic(tokens) ? { unknown: `an expansion could be ${what}` } : null;
}
