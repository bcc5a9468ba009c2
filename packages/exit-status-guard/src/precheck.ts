import { type HookInput, none, type Verdict } from '@kit/gate-approval';
import { hasStructure } from '@kit/shell-segments';
import type { GuardContext } from './context.ts';
import {
  compileRegistryFiles,
  type Registry,
  type RegistryFiles,
  readRegistryFiles,
  triggerLiterals,
  triggerLiteralsOfRegistry,
} from './registry.ts';
import { coreOf, mayMatch, occursIn, type RequiredLiterals } from './required-literals.ts';

/**
 * What the pre-check found: silent without the parser, or why the command goes to the parser.
 * - `no-structure`: no | & ; ( ) ` or line break: one simple command, which cannot lose a status;
 * - `no-gate-word`: no gate, mutator or restore pattern's literals in the text, so none can stand
 *   at any segment head, at any depth;
 * - `ansi-c-quoting` (a `$'…'` can spell any character), `pipestatus`, `gate-word` (with the
 *   literal found) and `opaque-pattern` (a pattern whose literals are not known, or that needs
 *   none) mean "parse".
 */
export type Precheck =
  | { silent: true; by: 'no-structure' | 'no-gate-word' }
  | { silent: false; by: 'ansi-c-quoting' | 'pipestatus' | 'opaque-pattern' }
  | { silent: false; by: 'gate-word'; word: string };

/**
 * The command as the literals are looked for in it: line continuations joined, every quote,
 * backslash and `$` deleted, backticks made spaces, and a space after an option word that ends in
 * env's `-S` (its string is attached: `env -S'make check'`). Whatever a head can be (a word's value
 * after quote removal, a dynamic word's text, the string `bash -c` or `eval` runs, a suffix after
 * launchers, a tool's basename, a runner's tool), each literal it holds is a substring of this
 * text, and a word's edge in the head is one here: deleting characters never separates the ones
 * left, and what ends up before a word's first character is a blank, an operator, `/` or `=`, and
 * after its last one a blank, an operator, `.` or `@` (what a basename, `.exe` or a runner's
 * `@version` leaves), or the text's end.
 */
export function normalizeForLiterals(command: string): string {
  return command
    .replace(/\\\r?\n/g, '')
    .replace(/[\r'"\\$]/g, '')
    .replace(/(^|[^A-Za-z0-9_])(-[A-Za-z]*?S)(?=\S)/g, '$1$2 ')
    .replaceAll('`', ' ');
}

/**
 * Decides what it can before any parse. Sound by construction, and proven by property tests: when
 * it says silent, the full evaluation would have been silent too. `triggers` gives the literals of
 * every gate, mutator and restore pattern of the call's registry; it is asked only when the
 * command has structure (a project registry read costs a file probe).
 */
export function precheckCommand(
  command: string,
  triggers: () => readonly (RequiredLiterals | null)[],
): Precheck {
  // `$'\x7c'` is a `|` the raw text never shows; quotes, backslashes and line continuations
  // between the `$` and the quote may vanish in an outer shell (`bash -c "\$'…'"`), so they go first.
  if (/\$'/.test(command.replace(/\\\r?\n/g, '').replace(/[\r"\\]/g, ''))) {
    return { silent: false, by: 'ansi-c-quoting' };
  }
  const text = normalizeForLiterals(command);
  if (text.includes('PIPESTATUS')) return { silent: false, by: 'pipestatus' };
  if (!hasStructure(command)) return { silent: true, by: 'no-structure' };
  let lower: string | undefined;
  const lowerText = () => {
    lower ??= text.toLowerCase();
    return lower;
  };
  for (const literals of triggers()) {
    if (literals === null || literals.clauses.length === 0) return { silent: false, by: 'opaque-pattern' };
    if (mayMatch(literals, text, lowerText)) {
      const haystack = literals.ignoreCase ? lowerText() : text;
      const found = literals.clauses
        .flat()
        .filter((literal) => occursIn(literal, haystack))
        .map(coreOf);
      const word = found.reduce(
        (longest, literal) => (literal.length > longest.length ? literal : longest),
        '',
      );
      return { silent: false, by: 'gate-word', word };
    }
  }
  return { silent: true, by: 'no-gate-word' };
}

/**
 * How the pre-check left one call: decided (a no-opinion verdict), or to be parsed, with the
 * call's registry. The registry files are read at most once per call: the pre-check reads them
 * when it needs their literals, and `registry()` compiles what it read (or reads them then).
 */
export type CallPrecheck = { decided: Verdict } | { decided: null; registry: () => Registry };

/**
 * The pre-check of one call with the registry it is judged with: a no-opinion verdict that says
 * how it was decided (`{ parser: false, precheck }`), or the call's registry to parse with, after
 * noting why on the call's trace (`{ parser: true, precheck, word? }` through `context.note`).
 */
export function precheckCall(command: string, input: HookInput, context: GuardContext): CallPrecheck {
  let files: RegistryFiles | undefined;
  const filesOfCall = () => {
    files ??= readRegistryFiles({
      env: context.env,
      cwd: input.cwd || context.cwd,
      readText: context.readText,
    });
    return files;
  };
  const found = precheckCommand(command, () =>
    context.registry ? triggerLiteralsOfRegistry(context.registry) : triggerLiterals(filesOfCall()),
  );
  if (found.silent) return { decided: none({ parser: false, precheck: found.by }) };
  context.note?.({
    parser: true,
    precheck: found.by,
    ...(found.by === 'gate-word' ? { word: found.word } : {}),
  });
  return { decided: null, registry: () => context.registry ?? compileRegistryFiles(filesOfCall()) };
}
