import type { HeadWord } from './git-global-options.ts';
import { longOptions } from './git-long-options.ts';

/** How one subcommand's options read: the short ones that take a value, and the full long list. */
export interface OptionSpec {
  valueShort: string; // 'mFCct' for commit: `-m msg`, `-mmsg`, `-am msg`
  long: readonly string[]; // every long form git accepts, `=` marking a required value (git-long-options.ts)
}

/** One argument of a subcommand, as git's parse-options reads it. */
export type ArgToken =
  // -f  --force  --no-force  --force-with-lease=main  -m msg; a long name is the full one, not the prefix typed
  | { kind: 'option'; name: string; negated: boolean; value?: HeadWord }
  | { kind: 'operand'; value: string } // a ref, a path; everything after `--`
  | { kind: 'dynamic' } // `$x`: an expansion that could be an option or an operand
  | { kind: 'usage'; why: string }; // -h, --help, an ambiguous prefix: git prints usage and writes nothing

/** The option spec of a subcommand whose long options git-long-options.ts lists. */
export function optionSpecOf(subcommand: string, valueShort: string): OptionSpec {
  return { valueShort, long: longOptions[subcommand] ?? [] };
}

/**
 * Reads subcommand arguments as git's parse-options does: short-option clusters split (`-fd` is
 * `-f -d`), a value option inside a cluster takes the rest of it (`-mfix`) or the next word, long
 * options by any unambiguous prefix of the full list (`--f` is `--force` where nothing else starts
 * so; `--no-dry` is `--no-dry-run`), options and operands may interleave, and everything after
 * `--` is an operand (a pathspec). `-h` and `--help` are usage, as is an ambiguous prefix.
 */
export function scanArgs(args: HeadWord[], spec: OptionSpec): ArgToken[] {
  const forms = longFormsOf(spec.long);
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
      const typed = word.slice(2, equals === -1 ? undefined : equals);
      const attached = equals === -1 ? undefined : word.slice(equals + 1);
      if (typed === 'help' || typed === 'help-all') {
        tokens.push({ kind: 'usage', why: `--${typed}` });
        continue;
      }
      const resolved = resolveLong(typed, forms);
      if (resolved === 'ambiguous') {
        tokens.push({ kind: 'usage', why: `--${typed} is an ambiguous option` });
        continue;
      }
      const name = resolved === null ? `--${typed}` : `--${resolved.key}`;
      const negated = resolved?.negated ?? false;
      if (attached !== undefined) tokens.push({ kind: 'option', name, negated, value: attached });
      else if (resolved?.takesValue) tokens.push({ kind: 'option', name, negated, value: next() });
      else tokens.push({ kind: 'option', name, negated });
    } else if (word.startsWith('-') && word.length > 1) {
      for (let at = 1; at < word.length; at += 1) {
        const letter = word.charAt(at);
        if (!spec.valueShort.includes(letter)) {
          // parse-options answers an `h` it does not know with the usage text, even in a cluster.
          tokens.push(
            letter === 'h'
              ? { kind: 'usage', why: '-h' }
              : { kind: 'option', name: `-${letter}`, negated: false },
          );
          continue;
        }
        const rest = word.slice(at + 1);
        tokens.push({
          kind: 'option',
          name: `-${letter}`,
          negated: false,
          value: rest === '' ? next() : rest,
        });
        break;
      }
    } else {
      tokens.push({ kind: 'operand', value: word });
    }
  }
  return tokens;
}

/** One long form of the list: the option it belongs to (its name without `no-`), and whether it negates it. */
interface LongForm {
  form: string; // force-with-lease, no-dry-run
  key: string; // force-with-lease, dry-run
  negated: boolean;
  takesValue: boolean;
}

const formCache = new WeakMap<readonly string[], LongForm[]>();

function longFormsOf(list: readonly string[]): LongForm[] {
  let forms = formCache.get(list);
  if (forms === undefined) {
    forms = list.map((entry) => {
      const takesValue = entry.endsWith('=');
      const form = takesValue ? entry.slice(0, -1) : entry;
      const negated = form.startsWith('no-');
      return { form, key: negated ? form.slice(3) : form, negated, takesValue };
    });
    formCache.set(list, forms);
  }
  return forms;
}

/**
 * The option a typed long name stands for, as parse_long_opt decides: an exact form wins; else a
 * prefix of forms of exactly one option; a prefix of forms of two or more is ambiguous, and so is
 * `--n`, `--no`, `--no-` (they abbreviate every negation). null when no form starts so: an option
 * this git does not know (a newer git may), read as a flag.
 */
function resolveLong(typed: string, forms: LongForm[]): LongForm | 'ambiguous' | null {
  const exact = forms.find((form) => form.form === typed);
  if (exact !== undefined) return exact;
  if (typed !== '' && 'no-'.startsWith(typed)) return 'ambiguous';
  const matches = forms.filter((form) => form.form.startsWith(typed));
  const keys = new Set(matches.map((form) => form.key));
  if (keys.size > 1) return 'ambiguous';
  return matches[0] ?? null;
}

/** True when `token` is the option `name` (a full long name, or a short one), not negated. */
export function isOption(token: ArgToken, ...names: string[]): boolean {
  return token.kind === 'option' && !token.negated && names.includes(token.name);
}

/** True when `token` is the negation of one of the named long options (`--no-dry-run`). */
export function isNegated(token: ArgToken, ...names: string[]): boolean {
  return token.kind === 'option' && token.negated && names.includes(token.name);
}
