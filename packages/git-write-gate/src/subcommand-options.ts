import type { HeadWord } from './git-global-options.ts';

/** Which options of one subcommand take a value, so that the value is not read as an option. */
export interface OptionSpec {
  valueShort: string; // 'mFCct' for commit: `-m msg`, `-mmsg`, `-am msg`
  valueLong: string[]; // ['--message', ...]: `--message msg` (the `--message=msg` form needs no entry)
}

/** One argument of a subcommand, as git's parse-options reads it. */
export type ArgToken =
  | { kind: 'option'; name: string; value?: HeadWord } // -f   --force   --force-with-lease=main   -m msg
  | { kind: 'operand'; value: string } // a ref, a path; everything after `--`
  | { kind: 'dynamic' }; // `$x`: an expansion that could be an option or an operand

/**
 * Reads subcommand arguments as git's parse-options does: short-option clusters split (`-fd` is
 * `-f -d`), a value option inside a cluster takes the rest of it (`-mfix`) or the next word,
 * options and operands may interleave, and everything after `--` is an operand (a pathspec).
 */
export function scanArgs(args: HeadWord[], spec: OptionSpec): ArgToken[] {
  const tokens: ArgToken[] = [];
  let index = 0;
  const next = (): HeadWord => {
    index += 1;
    return index < args.length ? (args[index] ?? null) : null;
  };
  for (; index < args.length; index += 1) {
    const word = args[index] ?? null;
    if (word === null) {
      tokens.push({ kind: 'dynamic' });
    } else if (word === '--') {
      for (const rest of args.slice(index + 1))
        tokens.push(rest === null ? { kind: 'dynamic' } : { kind: 'operand', value: rest });
      break;
    } else if (word.startsWith('--')) {
      const equals = word.indexOf('=');
      if (equals !== -1)
        tokens.push({ kind: 'option', name: word.slice(0, equals), value: word.slice(equals + 1) });
      else if (spec.valueLong.includes(word)) tokens.push({ kind: 'option', name: word, value: next() });
      else tokens.push({ kind: 'option', name: word });
    } else if (word.startsWith('-') && word.length > 1) {
      for (let at = 1; at < word.length; at += 1) {
        const letter = word.charAt(at);
        if (!spec.valueShort.includes(letter)) {
          tokens.push({ kind: 'option', name: `-${letter}` });
          continue;
        }
        const rest = word.slice(at + 1);
        tokens.push({ kind: 'option', name: `-${letter}`, value: rest === '' ? next() : rest });
        break;
      }
    } else {
      tokens.push({ kind: 'operand', value: word });
    }
  }
  return tokens;
}

/**
 * True when `token` names the long option `name`, whole or abbreviated as parse-options accepts
 * (`--ha` for `--hard`); `minimum` is the shortest prefix counted, so that a short ambiguous
 * prefix git would reject is not read as the option.
 */
export function isLongOption(token: ArgToken, name: string, minimum: number = name.length): boolean {
  return (
    token.kind === 'option' &&
    token.name.startsWith('--') &&
    token.name.length >= minimum &&
    name.startsWith(token.name)
  );
}

/** True when `token` is one of the named options exactly (`-n`, `--dry-run`). */
export function isOption(token: ArgToken, ...names: string[]): boolean {
  return token.kind === 'option' && names.includes(token.name);
}
