import { isAbsolute, join, resolve, sep } from 'node:path';
import type { Unwrapped, Word } from '@kit/shell-segments';
import type { DirectoryOutcome } from './context.ts';
import {
  joinStates,
  joinWhere,
  optionOf,
  type Place,
  type ShellState,
  somewhere,
  type Where,
  whereAt,
} from './shell-state.ts';

/** What the directory builtins need to know of the world: the file system, and the hook's environment. */
export interface DirectoryWorld {
  resolveDirectory: (path: string) => DirectoryOutcome;
  env: Record<string, string | undefined>;
}

/** The states a builtin leaves: when it succeeds, and when it fails (null: that path cannot happen). */
export interface Moved {
  success: ShellState | null;
  failure: ShellState | null;
}

/** The builtins that move a shell or its directory stack. */
export const directoryBuiltins: ReadonlySet<string> = new Set(['cd', 'pushd', 'popd', 'dirs']);

/**
 * What `cd`, `pushd`, `popd` or `dirs` does to `state`, as bash does it: a literal directory is
 * looked up on the file system (a `cd` to a path that does not exist or is not a directory fails
 * and leaves the shell where it was; `cd a b` fails too), `-` goes to OLDPWD, no operand to HOME,
 * a leading `~` is HOME, CDPATH (set on the line, or in the environment) is searched for a
 * relative name, `-P` resolves symlinks first and the default `-L` resolves `..` by the name,
 * and the physical directory behind each is what git sees. An expansion, or a path that cannot
 * be read, moves the shell somewhere the line does not show. `prefixed` are the assignments in
 * front of the builtin (`CDPATH=/x cd y`).
 */
export function runDirectoryBuiltin(
  name: string,
  args: readonly Word[],
  prefixed: ReadonlyMap<string, string | null>,
  state: ShellState,
  world: DirectoryWorld,
): Moved {
  switch (name) {
    case 'cd':
      return cd(args, prefixed, state, world);
    case 'pushd':
      return pushd(args, prefixed, state, world);
    case 'popd':
      return popd(args, state, world);
    case 'dirs':
      return args.some((word) => word.value === '-c')
        ? { success: { ...state, stack: [] }, failure: null }
        : { success: state, failure: state };
    default:
      return { success: state, failure: state };
  }
}

/** A cd's options (-L -P -e -@, the last of -L/-P wins; null when neither is given) and its operands. */
function readCdArgs(args: readonly Word[]): { physical: boolean | null; operands: readonly Word[] } {
  let physical: boolean | null = null;
  let at = 0;
  for (; at < args.length; at += 1) {
    const value = args[at]?.value ?? null;
    if (value === null || args[at]?.dynamic) break;
    if (value === '--') {
      at += 1;
      break;
    }
    if (!/^-[LPe@]+$/.test(value)) break;
    const last = Math.max(value.lastIndexOf('L'), value.lastIndexOf('P'));
    if (last !== -1) physical = value.charAt(last) === 'P';
  }
  return { physical, operands: args.slice(at) };
}

/**
 * `cd`: `-P`/`-L`, else `set -P` / `set -o physical` as the line left it (both ways when it does
 * not show which); then `shopt -s cdable_vars` where the name is no directory.
 */
function cd(
  args: readonly Word[],
  prefixed: ReadonlyMap<string, string | null>,
  state: ShellState,
  world: DirectoryWorld,
): Moved {
  const { physical, operands } = readCdArgs(args);
  if (operands.length > 1) return { success: null, failure: state }; // cd: too many arguments
  const mode = physical ?? optionOf(state, 'physical');
  const modes = physical === null ? physicalModes(state) : [physical];
  let moved: Moved = { success: null, failure: null };
  for (const each of modes) moved = joinMoved(moved, cdTo(operands[0], each, prefixed, state, world));
  return withCdableVars(moved, operands[0], mode, prefixed, world);
}

function cdTo(
  operand: Word | undefined,
  physical: boolean,
  prefixed: ReadonlyMap<string, string | null>,
  state: ShellState,
  world: DirectoryWorld,
): Moved {
  if (operand === undefined) {
    const home = variable('HOME', prefixed, state, world);
    if (home === undefined) return { success: null, failure: state }; // cd: HOME not set
    if (home === null) return movedSomewhere(state, 'cd goes to a HOME the line sets by an expansion');
    return change(state, home, physical, cdpathOf(home, prefixed, state, world), world);
  }
  if (operand.value === '-' && !operand.dynamic) return toOldpwd(state, physical, world);
  const tilde = /^~([+-])(\/[\w.@%+=:,/-]*)?$/.exec(operand.text);
  if (tilde !== null) return toTildeDirectory(tilde[1] === '+', tilde[2] ?? '', physical, state, world);
  const target = literalPath(operand, prefixed, state, world);
  if (target === null) return movedSomewhere(state, `cd goes to ${operand.text}, only known at run time`);
  if (target === '') return { success: state, failure: null };
  return change(state, target, physical, cdpathOf(target, prefixed, state, world), world);
}

/** `cd ~+/x` (from `$PWD`) and `cd ~-/x` (from `$OLDPWD`), from each place the line may be in. */
function toTildeDirectory(
  fromPwd: boolean,
  rest: string,
  physical: boolean,
  state: ShellState,
  world: DirectoryWorld,
): Moved {
  const base = fromPwd ? state.pwd : state.oldpwd;
  // OLDPWD unset: bash leaves `~-` as it is, a relative name.
  if (isNowhere(base)) return change(state, `~-${rest}`, physical, [], world);
  let moved: Moved = { success: null, failure: null };
  for (const place of base.places)
    moved = joinMoved(moved, change(state, `${place.logical}${rest}`, physical, [], world));
  if (base.unknown !== null) moved = joinMoved(moved, movedSomewhere(state, base.unknown));
  return moved;
}

/**
 * `shopt -s cdable_vars`: a `cd NAME` that finds no directory NAME goes to `$NAME`. The gate follows
 * the variables a cd operand names (set on the line, else the environment); where the option is
 * not known, both ends are kept.
 */
function withCdableVars(
  moved: Moved,
  operand: Word | undefined,
  physical: boolean | null,
  prefixed: ReadonlyMap<string, string | null>,
  world: DirectoryWorld,
): Moved {
  const failed = moved.failure;
  if (failed === null || operand === undefined || operand.value === null || operand.dynamic) return moved;
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(operand.value)) return moved;
  const cdable = optionOf(failed, 'cdable_vars');
  if (cdable === false) return moved;
  const value = variable(operand.value, prefixed, failed, world);
  if (value === undefined || value === '') return moved;
  let fallback: Moved = { success: null, failure: null };
  for (const each of physical === null ? [false, true] : [physical])
    fallback = joinMoved(
      fallback,
      value === null
        ? movedSomewhere(failed, `cd ${operand.value} goes to $${operand.value}, only known at run time`)
        : change(failed, value, each, cdpathOf(value, prefixed, failed, world), world),
    );
  return {
    success: joinStates(moved.success, fallback.success),
    failure: cdable === null ? joinStates(failed, fallback.failure) : fallback.failure,
  };
}

function joinMoved(a: Moved, b: Moved): Moved {
  return { success: joinStates(a.success, b.success), failure: joinStates(a.failure, b.failure) };
}

/** The value a word gives a directory builtin: its literal value, a leading `~` as HOME; null for an expansion. */
function literalPath(
  word: Word,
  prefixed: ReadonlyMap<string, string | null>,
  state: ShellState,
  world: DirectoryWorld,
): string | null {
  if (word.value !== null && !word.dynamic) return word.value;
  // ~ and ~/x, unquoted and plain: the only expansion is HOME.
  const tilde = /^~(\/[\w.@%+=:,/-]*)?$/.exec(word.text);
  if (tilde === null) return null;
  const home = variable('HOME', prefixed, state, world);
  return typeof home === 'string' ? home + (tilde[1] ?? '') : null;
}

/** A variable as cd reads it: set in front of it, set earlier on the line, else the environment; undefined: unset. */
function variable(
  name: string,
  prefixed: ReadonlyMap<string, string | null>,
  state: ShellState,
  world: DirectoryWorld,
): string | null | undefined {
  if (prefixed.has(name)) return prefixed.get(name) ?? null;
  if (state.vars.has(name)) return state.vars.get(name);
  return world.env[name];
}

/** The CDPATH entries to try for a relative name, in order; null when CDPATH is an expansion. */
function cdpathOf(
  target: string,
  prefixed: ReadonlyMap<string, string | null>,
  state: ShellState,
  world: DirectoryWorld,
): readonly string[] | null {
  if (isAbsolute(target) || /^\.\.?([\\/]|$)/.test(target)) return [];
  const cdpath = variable('CDPATH', prefixed, state, world);
  if (cdpath === null) return null;
  if (cdpath === undefined || cdpath === '') return [];
  return cdpath.split(':').map((entry) => (entry === '' ? '.' : entry));
}

/**
 * The shell moved to `target` from each place it may be in: per place, a success (the new
 * place) or a failure (the shell stays). `cdpath` entries are tried first, then the name itself.
 */
function change(
  state: ShellState,
  target: string,
  physical: boolean,
  cdpath: readonly string[] | null,
  world: DirectoryWorld,
): Moved {
  if (cdpath === null) return movedSomewhere(state, 'cd searches a CDPATH only known at run time');
  let arrived: Where = { places: [], unknown: null };
  let stayed: Where = { places: [], unknown: null };
  const fromUnknown = state.pwd.unknown !== null && !isAbsolute(target);
  for (const from of state.pwd.places) {
    const reached = enter(from, target, physical, cdpath, world);
    if (reached === 'fails') stayed = joinWhere(stayed, whereAt(from));
    else if (reached === 'unknown') {
      arrived = joinWhere(arrived, somewhere(`cd ${target}: the directory cannot be read`));
      stayed = joinWhere(stayed, whereAt(from));
    } else arrived = joinWhere(arrived, whereAt(reached));
  }
  if (state.pwd.unknown !== null) {
    if (fromUnknown) {
      arrived = joinWhere(arrived, somewhere(state.pwd.unknown));
      stayed = joinWhere(stayed, somewhere(state.pwd.unknown));
    } else {
      // An absolute target is the same from anywhere.
      const reached = enter({ logical: '/', physical: '/' }, target, physical, cdpath, world);
      if (reached === 'fails') stayed = joinWhere(stayed, somewhere(state.pwd.unknown));
      else if (reached === 'unknown') {
        arrived = joinWhere(arrived, somewhere(`cd ${target}: the directory cannot be read`));
        stayed = joinWhere(stayed, somewhere(state.pwd.unknown));
      } else arrived = joinWhere(arrived, whereAt(reached));
    }
  }
  return {
    success: isNowhere(arrived) ? null : { ...state, pwd: arrived, oldpwd: state.pwd },
    failure: isNowhere(stayed) ? null : { ...state, pwd: stayed },
  };
}

function isNowhere(where: Where): boolean {
  return where.places.length === 0 && where.unknown === null;
}

/** One cd from one place: where it lands, that it fails, or that the file system cannot say. */
function enter(
  from: Place,
  target: string,
  physical: boolean,
  cdpath: readonly string[],
  world: DirectoryWorld,
): Place | 'fails' | 'unknown' {
  for (const entry of [...cdpath, '.']) {
    const name = entry === '.' ? target : join(entry, target);
    const reached = enterOne(from, name, physical, world);
    // A CDPATH entry that cannot be read could have held the name: bash would have gone there.
    if (reached !== 'fails') return reached;
  }
  return 'fails';
}

function enterOne(
  from: Place,
  name: string,
  physical: boolean,
  world: DirectoryWorld,
): Place | 'fails' | 'unknown' {
  if (!physical) {
    // -L: $PWD/name with `..` taken by the name; if that is no directory, bash tries the name from
    // the physical directory.
    const logical = resolve(from.logical, name);
    const outcome = world.resolveDirectory(logical);
    if (outcome.ok) return { logical, physical: outcome.value };
    if (outcome.reason === 'unreadable') return 'unknown';
  }
  const outcome = world.resolveDirectory(physicalJoin(from.physical, name));
  if (outcome.ok) return { logical: outcome.value, physical: outcome.value };
  return outcome.reason === 'unreadable' ? 'unknown' : 'fails';
}

function movedSomewhere(state: ShellState, why: string): Moved {
  return { success: { ...state, pwd: somewhere(why), oldpwd: state.pwd }, failure: state };
}

/** `cd -`: to OLDPWD; it fails when OLDPWD is unset. */
function toOldpwd(state: ShellState, physical: boolean, world: DirectoryWorld): Moved {
  const back = state.oldpwd;
  if (isNowhere(back)) return { success: null, failure: state };
  let arrived: Where = { places: [], unknown: back.unknown };
  let failed = false;
  for (const place of back.places) {
    const reached = enterOne(place, '.', physical, world);
    if (reached === 'fails') failed = true;
    else
      arrived = joinWhere(
        arrived,
        reached === 'unknown' ? somewhere('cd -: the directory cannot be read') : whereAt(reached),
      );
  }
  return {
    success: isNowhere(arrived) ? null : { ...state, pwd: arrived, oldpwd: state.pwd },
    failure: failed || back.unknown !== null ? state : null,
  };
}

/** pushd dir (a cd that pushes where it was), pushd (swap with the top), pushd -n dir, pushd +N. */
function pushd(
  args: readonly Word[],
  prefixed: ReadonlyMap<string, string | null>,
  state: ShellState,
  world: DirectoryWorld,
): Moved {
  const noChange = args[0]?.value === '-n';
  const operands = noChange ? args.slice(1) : args;
  const operand = operands[0];
  if (operand === undefined) {
    if (state.stack === null) return unknownStack(state, 'pushd swaps with a stack the line does not show');
    const [top, ...rest] = state.stack;
    if (top === undefined) return { success: null, failure: state }; // pushd: no other directory
    return { success: { ...state, pwd: top, oldpwd: state.pwd, stack: [state.pwd, ...rest] }, failure: null };
  }
  if (operand.value !== null && /^[+-]\d+$/.test(operand.value))
    return unknownStack(state, `pushd ${operand.value} rotates the stack`);
  const target = literalPath(operand, prefixed, state, world);
  if (noChange) {
    const pushed =
      target === null
        ? somewhere(`pushd -n ${operand.text}`)
        : placeOf(resolve(firstLogical(state), target), world);
    return {
      success: { ...state, stack: state.stack === null ? null : [pushed, ...state.stack] },
      failure: null,
    };
  }
  // pushd moves as cd does: physically under `set -P` (both ways when the line does not show which).
  let moved: Moved = { success: null, failure: null };
  if (target === null) moved = movedSomewhere(state, `pushd goes to ${operand.text}, only known at run time`);
  else
    for (const physical of physicalModes(state))
      moved = joinMoved(
        moved,
        change(state, target, physical, cdpathOf(target, prefixed, state, world), world),
      );
  return {
    success:
      moved.success === null
        ? null
        : { ...moved.success, stack: state.stack === null ? null : [state.pwd, ...state.stack] },
    failure: moved.failure,
  };
}

/** popd (back to the top of the stack, popping it), popd -n, popd +N. */
function popd(args: readonly Word[], state: ShellState, world: DirectoryWorld): Moved {
  const noChange = args[0]?.value === '-n';
  const operands = noChange ? args.slice(1) : args;
  if (operands.length > 0) return unknownStack(state, 'popd with an operand');
  if (state.stack === null) return unknownStack(state, 'popd returns to a stack the line does not show');
  const [top, ...rest] = state.stack;
  if (top === undefined) return { success: null, failure: state }; // popd: directory stack empty
  if (noChange) return { success: { ...state, stack: rest }, failure: null };
  let pwd: Where = { places: [], unknown: top.unknown };
  for (const place of top.places)
    for (const physical of physicalModes(state)) {
      const reached = enterOne(place, '.', physical, world);
      pwd = joinWhere(
        pwd,
        reached === 'fails' || reached === 'unknown'
          ? somewhere('popd: the directory cannot be read')
          : whereAt(reached),
      );
    }
  return { success: { ...state, pwd, oldpwd: state.pwd, stack: rest }, failure: null };
}

/** How a directory builtin without -P/-L resolves: as `set -P` left it, both ways when the line does not show which. */
function physicalModes(state: ShellState): boolean[] {
  const mode = optionOf(state, 'physical');
  return mode === null ? [false, true] : [mode];
}

function unknownStack(state: ShellState, why: string): Moved {
  return { success: { ...state, pwd: somewhere(why), oldpwd: state.pwd, stack: null }, failure: state };
}

function firstLogical(state: ShellState): string {
  return state.pwd.places[0]?.logical ?? '/';
}

/**
 * A path from a physical directory as the kernel reads it: joined, not normalised, so that `..`
 * after a symlink goes to the parent of where the link leads (`git -C link/..`, `cd -P link/..`).
 */
function physicalJoin(from: string, path: string): string {
  if (isAbsolute(path)) return path;
  return from.endsWith(sep) || from.endsWith('/') ? `${from}${path}` : `${from}${sep}${path}`;
}

/**
 * Where a launched command starts: from `start`, each launcher's directory in turn (env -C DIR,
 * sudo -D DIR), and the new root where chroot changes to it (with no --skip-chdir): `/`, or the
 * host's folder NEWROOT, where a git of that root starts (see otherRoot: not judged as this root's).
 */
export function launchedFrom(start: Where, unwrapped: Unwrapped, world: DirectoryWorld): Where {
  let where = start;
  const toRoots = (at: number) => {
    for (const root of unwrapped.roots)
      if (root.chdir && root.at === at)
        where = chdirWhere(where, root.word.dynamic ? null : root.word.value, world);
  };
  unwrapped.directories.forEach((directory, index) => {
    toRoots(index);
    where = chdirWhere(where, directory.dynamic ? null : directory.value, world);
  });
  toRoots(unwrapped.directories.length);
  return where;
}

/** The new root of a chroot other than `/` (as written), or null when the command runs in this machine's root. */
export function otherRoot(unwrapped: Unwrapped): string | null {
  const root = unwrapped.roots.find(
    ({ word }) => word.dynamic || word.value === null || !/^\/+$/.test(word.value),
  );
  return root === undefined ? null : root.word.text;
}

/** A directory named by an absolute path, as a Where: its physical path, or somewhere when it cannot be read. */
export function placeOf(path: string, world: DirectoryWorld): Where {
  const outcome = world.resolveDirectory(path);
  if (outcome.ok) return whereAt({ logical: path, physical: outcome.value });
  return outcome.reason === 'unreadable'
    ? somewhere(`${path} cannot be read`)
    : { places: [], unknown: null };
}

/**
 * A program's chdir, as `git -C`, `env -C` and `sudo -D` make it: from each physical directory,
 * the physical directory a literal path leads to. A path that is no directory makes the program
 * stop (it writes nothing there: the place is dropped); an expansion or a path that cannot be read
 * leads somewhere. An empty path is no move.
 */
export function chdirWhere(where: Where, path: string | null, world: DirectoryWorld): Where {
  if (path === '') return where;
  if (path === null) return somewhere('a directory option is an expansion');
  let result: Where = { places: [], unknown: null };
  const from = isAbsolute(path) ? [{ logical: path, physical: path }] : where.places;
  for (const place of from) {
    const outcome = world.resolveDirectory(physicalJoin(place.physical, path));
    if (outcome.ok) result = joinWhere(result, whereAt({ logical: outcome.value, physical: outcome.value }));
    else if (outcome.reason === 'unreadable') result = joinWhere(result, somewhere(`${path} cannot be read`));
  }
  if (where.unknown !== null && !isAbsolute(path)) result = joinWhere(result, somewhere(where.unknown));
  return result;
}
