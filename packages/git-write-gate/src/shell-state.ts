import { type CommandLine, type Context, gitCommandVariables } from '@kit/shell-segments';

/** One place a shell can be in: bash's logical `$PWD`, and the physical directory git (and every program) sees. */
export interface Place {
  logical: string;
  physical: string;
}

/** Where a shell may be: one of `places`, or, when `unknown` says why, somewhere the line does not show. */
export interface Where {
  places: readonly Place[];
  unknown: string | null;
}

/** A function defined on the line: the body a call runs, in the line that holds it. */
export interface FunctionBody {
  line: CommandLine;
  frame: Context; // its function-body frame
}

/**
 * What the gate knows of one shell at one point of the line: where it is, what `cd -`, `pushd`
 * and `popd` would go back to, the variables `cd` reads (when the line sets them), and the
 * functions and aliases the line has defined so far.
 */
export interface ShellState {
  pwd: Where;
  oldpwd: Where;
  stack: readonly Where[] | null; // pushd's stack, top first; null when it is not known
  vars: ReadonlyMap<string, string | null | undefined>; // set on the line: a value, null (an expansion), undefined (unset)
  functions: ReadonlyMap<string, readonly FunctionBody[]>;
  aliases: ReadonlySet<string>;
  options: ReadonlyMap<ShellOption, boolean | null>; // set on the line: on, off, null (not known); absent: bash's default, off
}

/**
 * The shell options that change where a `cd` goes (`set -P`, `shopt -s lastpipe`, `shopt -s
 * cdable_vars`), and `set -a`, which exports every variable assigned after it.
 */
export type ShellOption = 'physical' | 'lastpipe' | 'cdable_vars' | 'allexport';

/** An option as the line left it: true, false, or null when the line does not show which. */
export function optionOf(state: ShellState, option: ShellOption): boolean | null {
  return optionIn(state.options, option);
}

/** An option in a map of options: absent is bash's default, off; null stays "not known" (`??` would make it off). */
function optionIn(options: ReadonlyMap<ShellOption, boolean | null>, option: ShellOption): boolean | null {
  const value = options.get(option);
  return value === undefined ? false : value;
}

/** The variables that say which repository git writes in, followed where the line exports them. */
export const gitVariables: ReadonlySet<string> = new Set(['GIT_DIR', 'GIT_WORK_TREE']);

/**
 * The variables git reads from its environment that the gate follows where the line exports them:
 * the repository's (GIT_DIR, GIT_WORK_TREE) and the command lines git runs (GIT_EDITOR, …).
 */
export const exportedVariables: ReadonlySet<string> = new Set([...gitVariables, ...gitCommandVariables]);

/** GIT_CONFIG_COUNT and its numbered GIT_CONFIG_KEY_n / GIT_CONFIG_VALUE_n: config git reads from its environment. */
export const environmentConfigVariable: RegExp = /^GIT_CONFIG_(COUNT|KEY_\d+|VALUE_\d+)$/;

/** True for a variable the gate follows where the line exports it: git's own, and its environment config. */
export function isFollowedExport(name: string): boolean {
  return exportedVariables.has(name) || environmentConfigVariable.test(name);
}

/** How many places a Where keeps before it says "somewhere"; the cap keeps a line's work bounded. */
export const maxPlaces = 16;

/** A Where that is exactly one place. */
export function whereAt(place: Place): Where {
  return { places: [place], unknown: null };
}

/** A Where the line does not show, and why. */
export function somewhere(why: string): Where {
  return { places: [], unknown: why };
}

/** Either of two Wheres. */
export function joinWhere(a: Where, b: Where): Where {
  const places = [...a.places];
  for (const place of b.places) if (!places.some((known) => samePlace(known, place))) places.push(place);
  const unknown = a.unknown ?? b.unknown;
  if (places.length > maxPlaces)
    return { places: places.slice(0, maxPlaces), unknown: unknown ?? `more than ${maxPlaces} directories` };
  return { places, unknown };
}

/** The same Where, place for place. */
export function sameWhere(a: Where, b: Where): boolean {
  return (
    a.unknown === b.unknown &&
    a.places.length === b.places.length &&
    a.places.every((place) => b.places.some((other) => samePlace(place, other)))
  );
}

function samePlace(a: Place, b: Place): boolean {
  return a.logical === b.logical && a.physical === b.physical;
}

/** A Where widened to "maybe somewhere else too": what a loop that keeps moving leaves. */
export function widen(where: Where, why: string): Where {
  return { places: where.places, unknown: where.unknown ?? why };
}

/** The state of a shell that starts in `pwd` with nothing of the line known yet. */
export function startState(pwd: Where): ShellState {
  return {
    pwd,
    oldpwd: somewhere('OLDPWD is not set on the line'),
    stack: [],
    vars: new Map(),
    functions: new Map(),
    aliases: new Set(),
    options: new Map(),
  };
}

/**
 * A new shell process started from `state` in `pwd` (bash -c, a find action, a shell fed by a
 * heredoc): it inherits the directory, not the stack, the functions, the aliases or the shell
 * options (bash -c starts with its defaults unless SHELLOPTS is exported); a variable
 * the line set may or may not be exported, so it is not known there.
 */
export function childState(state: ShellState, pwd: Where): ShellState {
  const vars = new Map<string, string | null | undefined>();
  // The gate keeps git's variables only where they are exported: a new shell has them.
  for (const [name, value] of state.vars) vars.set(name, isFollowedExport(name) ? value : null);
  return {
    pwd,
    oldpwd: somewhere('OLDPWD of a new shell is not known'),
    stack: [],
    vars,
    functions: new Map(),
    aliases: new Set(),
    options: new Map(),
  };
}

/** The state on either of two paths; null (a path that cannot be taken) is the identity. */
export function joinStates(a: ShellState | null, b: ShellState | null): ShellState | null {
  if (a === null) return b;
  if (b === null || a === b) return a;
  const vars = new Map(a.vars);
  for (const [name, value] of b.vars) {
    if (!vars.has(name)) vars.set(name, null);
    else if (vars.get(name) !== value) vars.set(name, null);
  }
  for (const name of a.vars.keys()) if (!b.vars.has(name)) vars.set(name, null);
  const functions = new Map(a.functions);
  for (const [name, bodies] of b.functions) {
    const known = functions.get(name) ?? [];
    functions.set(name, [...known, ...bodies.filter((body) => !known.includes(body))]);
  }
  return {
    pwd: joinWhere(a.pwd, b.pwd),
    oldpwd: joinWhere(a.oldpwd, b.oldpwd),
    stack:
      a.stack !== null && b.stack !== null && a.stack.length === b.stack.length
        ? a.stack.map((where, at) => joinWhere(where, b.stack?.[at] as Where))
        : null,
    vars,
    functions,
    aliases: new Set([...a.aliases, ...b.aliases]),
    options: joinOptions(a.options, b.options),
  };
}

function joinOptions(
  a: ReadonlyMap<ShellOption, boolean | null>,
  b: ReadonlyMap<ShellOption, boolean | null>,
): ReadonlyMap<ShellOption, boolean | null> {
  if (a === b || (a.size === 0 && b.size === 0)) return a;
  const options = new Map<ShellOption, boolean | null>();
  for (const name of new Set([...a.keys(), ...b.keys()])) {
    const left = optionIn(a, name);
    options.set(name, left === optionIn(b, name) ? left : null);
  }
  return options;
}

/** The same state, as far as a loop's fixed point goes. */
export function sameState(a: ShellState | null, b: ShellState | null): boolean {
  if (a === null || b === null) return a === b;
  if (!sameWhere(a.pwd, b.pwd) || !sameWhere(a.oldpwd, b.oldpwd)) return false;
  if ((a.stack === null) !== (b.stack === null)) return false;
  if (a.stack !== null && b.stack !== null) {
    if (a.stack.length !== b.stack.length) return false;
    if (!a.stack.every((where, at) => sameWhere(where, b.stack?.[at] as Where))) return false;
  }
  if (a.vars.size !== b.vars.size || [...a.vars].some(([name, value]) => b.vars.get(name) !== value))
    return false;
  if ([...a.options, ...b.options].some(([name]) => optionOf(a, name) !== optionOf(b, name))) return false;
  const bodies = (state: ShellState) =>
    [...state.functions.values()].reduce((sum, list) => sum + list.length, 0);
  return bodies(a) === bodies(b) && a.aliases.size === b.aliases.size;
}
