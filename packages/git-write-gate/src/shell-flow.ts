import { isAbsolute } from 'node:path';
import {
  type CommandLine,
  type CompoundStatement,
  type Context,
  listOf,
  nestedRunBy,
  type Placement,
  type Segment,
  type SimpleStatement,
  type StatementList,
  segmentsUnder,
  unwrapLaunchers,
  type Word,
} from '@kit/shell-segments';
import {
  chdirWhere,
  launchedFrom,
  type DirectoryWorld,
  directoryBuiltins,
  runDirectoryBuiltin,
} from './effective-directory.ts';
import {
  childState,
  joinStates,
  joinWhere,
  type Place,
  type ShellState,
  sameState,
  somewhere,
  type Where,
  widen,
  exportedVariables,
  isFollowedExport,
  optionOf,
} from './shell-state.ts';
import { setShellOptions } from './shell-options.ts';

/** One statement of a list as the flow runs it: a simple command, a compound one, or a pipeline. */
type Item =
  | { kind: 'segment'; segment: Segment; start: number; before: Block[] }
  | { kind: 'compound'; frames: Context[]; blocks: Block[]; start: number; before: Block[] }
  | { kind: 'pipeline'; stages: Item[]; start: number; before: Block[] };

/** A list of statements: the main list, a body, a substitution. */
interface Block {
  frame: Context;
  items: Item[];
}

/** The states after a statement: when it succeeded, and when it failed (null: it cannot end so). */
export interface Outs {
  success: ShellState | null;
  failure: ShellState | null;
}

/** What one shell of the run collects: where it exited, where its function returned. */
interface Run {
  exited: ShellState | null;
  returned: ShellState | null;
  calls: number; // function calls deep
}

/** The limits of one flow: how many segment visits, and function calls deep. */
export interface FlowLimits {
  maxVisits: number;
  maxCalls: number;
  maxLoopRounds: number;
}

/** Thrown when a line needs more work than the limits allow; the gate then cannot judge it. */
export class FlowLimitReached extends Error {}

// Nested lines that run in the shell that runs them: what they change stays.
const sameShell = new Set(['eval', 'sourced']);
const trackedVariables = new Set(['CDPATH', 'HOME']);

/**
 * Runs a command line the way bash would, as far as where it is goes: every list in order, with
 * `&&` and `||` taking the path their left side leaves (a `cd` that fails stops an `&&` chain;
 * `cd x || exit` ends the shell when it fails), `;` both paths, pipelines, backgrounds, subshells
 * and substitutions apart, `if`/`case` every branch, loops until where they are stops changing,
 * functions where they are called, `eval` and `source` in the same shell, `bash -c` and every
 * other nested line in a shell of its own. It records the states each segment may start in:
 * a segment no path reaches (after a `cd` that fails and `&&`) is not in `reach`.
 */
export class ShellFlow {
  readonly reach: Map<Segment, ShellState> = new Map();
  readonly known: Place[] = [];
  private visits = 0;
  private readonly blocks = new Map<CommandLine, Block>();
  private readonly frameBlocks = new Map<Context, Block>();

  constructor(
    private readonly world: DirectoryWorld,
    private readonly limits: FlowLimits,
    // Names a `cd` operand spells (shopt -s cdable_vars goes to `$name`): their values are followed.
    private readonly cdNames: ReadonlySet<string> = new Set(),
  ) {}

  /** Runs `line` (the top one, or a nested one in a shell of its own) from `state`. */
  runLine(line: CommandLine, state: ShellState): Outs {
    return this.runBlock(line, this.blockOf(line), state, newRun(0));
  }

  private blockOf(line: CommandLine): Block {
    let block = this.blocks.get(line);
    if (block === undefined) {
      const [first] = line.statements;
      block =
        first === undefined ? { frame: mainFrame, items: [] } : blockOfList(listOf(first), this.frameBlocks);
      this.blocks.set(line, block);
    }
    return block;
  }

  private runBlock(line: CommandLine, block: Block, state: ShellState, run: Run): Outs {
    let previous: Outs | null = null;
    let previousItem: Item | null = null;
    for (const item of block.items) {
      let reached: ShellState | null;
      let bypass: Outs = { success: null, failure: null };
      const op = previousItem === null ? null : thenOf(previousItem);
      if (previous === null) reached = state;
      else if (op === '&&') {
        reached = previous.success;
        bypass = { success: null, failure: previous.failure };
      } else if (op === '||') {
        reached = previous.failure;
        bypass = { success: previous.success, failure: null };
      } else reached = joinStates(previous.success, previous.failure);
      const ran: Outs =
        reached === null ? { success: null, failure: null } : this.runItem(line, item, reached, run);
      previous = {
        success: joinStates(ran.success, bypass.success),
        failure: joinStates(ran.failure, bypass.failure),
      };
      previousItem = item;
    }
    return previous ?? { success: state, failure: null };
  }

  private runItem(line: CommandLine, item: Item, state: ShellState, run: Run): Outs {
    for (const block of item.before) this.runBlock(line, block, state, newRun(run.calls));
    const placement = placementOf(item);
    if (placement?.background) {
      this.runApart(line, item, state, run);
      return { success: state, failure: null };
    }
    const outs = this.runStatement(line, item, state, run);
    return placement?.negated ? { success: outs.failure, failure: outs.success } : outs;
  }

  /** A statement in a subshell of its own (a pipeline stage, `&`): what it changes does not come back. */
  private runApart(line: CommandLine, item: Item, state: ShellState, run: Run): void {
    this.runStatement(line, item, state, newRun(run.calls));
  }

  private runStatement(line: CommandLine, item: Item, state: ShellState, run: Run): Outs {
    switch (item.kind) {
      case 'segment':
        return this.runSegment(line, item.segment, state, run);
      case 'pipeline':
        return this.runPipeline(line, item.stages, state, run);
      case 'compound':
        return this.runCompound(line, item, state, run);
    }
  }

  /**
   * Every stage in a subshell of its own, but under `shopt -s lastpipe` (bash -c has no job
   * control) the last one runs in this shell: its `cd` stays. Both, when the line does not show
   * whether the option is on.
   */
  private runPipeline(line: CommandLine, stages: readonly Item[], state: ShellState, run: Run): Outs {
    const lastpipe = optionOf(state, 'lastpipe');
    const last = stages[stages.length - 1];
    for (const stage of stages)
      if (stage !== last || lastpipe === false) this.runApart(line, stage, state, run);
    if (last === undefined || lastpipe === false) return { success: state, failure: state };
    const outs = this.runStatement(line, last, state, run);
    return lastpipe === true ? outs : joinOuts(outs, { success: state, failure: state });
  }

  private runCompound(
    line: CommandLine,
    item: Item & { kind: 'compound' },
    state: ShellState,
    run: Run,
  ): Outs {
    const [first] = item.frames;
    const kind = first?.kind;
    const block = (frame: Context) => item.blocks[item.frames.indexOf(frame)] as Block;
    switch (kind) {
      case 'group':
        return this.runBlock(line, block(first as Context), state, run);
      case 'subshell': {
        const inner = newRun(run.calls);
        const outs = this.runBlock(line, block(first as Context), state, inner);
        const exited = inner.exited !== null;
        return {
          success: outs.success !== null || exited ? state : null,
          failure: outs.failure !== null || exited ? state : null,
        };
      }
      case 'function-body': {
        const frame = first as Context;
        const defined =
          frame.name === undefined
            ? state
            : {
                ...state,
                functions: new Map([
                  ...state.functions,
                  [frame.name, [...(state.functions.get(frame.name) ?? []), { line, frame }]],
                ]),
              };
        // The body is judged where it is defined too: it may be run in ways the line does not show.
        this.runBlock(line, block(frame), defined, { exited: null, returned: null, calls: run.calls + 1 });
        return { success: defined, failure: null };
      }
      case 'if-condition':
      case 'if-body':
      case 'else-body':
        return this.runIf(line, item, state, run);
      case 'while-condition':
      case 'while-body':
      case 'until-condition':
      case 'until-body':
        return this.runWhile(line, item, state, run);
      case 'for-body':
        return this.runLoop(state, (entry) => this.runBlock(line, block(first as Context), entry, run));
      default: {
        // case bodies, and any compound a newer parser adds: every part from the start, or none.
        let outs: ShellState | null = state;
        for (const part of item.blocks) {
          const ran = this.runBlock(line, part, state, run);
          outs = joinStates(outs, joinStates(ran.success, ran.failure));
        }
        return { success: outs, failure: outs };
      }
    }
  }

  private runIf(line: CommandLine, item: Item & { kind: 'compound' }, state: ShellState, run: Run): Outs {
    let condition: Outs | null = null;
    let success: ShellState | null = null;
    let failure: ShellState | null = null;
    let sawElse = false;
    item.frames.forEach((frame, at) => {
      const block = item.blocks[at] as Block;
      if (frame.kind === 'if-condition') {
        const from = condition === null ? state : condition.failure;
        condition = from === null ? { success: null, failure: null } : this.runBlock(line, block, from, run);
        return;
      }
      const from = frame.kind === 'else-body' ? (condition?.failure ?? state) : (condition?.success ?? state);
      if (frame.kind === 'else-body') sawElse = true;
      if (from === null) return;
      const ran = this.runBlock(line, block, from, run);
      success = joinStates(success, ran.success);
      failure = joinStates(failure, ran.failure);
    });
    // No branch taken: the if's status is 0.
    if (!sawElse) success = joinStates(success, (condition as Outs | null)?.failure ?? null);
    return { success, failure };
  }

  private runWhile(line: CommandLine, item: Item & { kind: 'compound' }, state: ShellState, run: Run): Outs {
    const until = item.frames.some((frame) => frame.kind.startsWith('until'));
    const condition = item.frames.findIndex((frame) => frame.kind.endsWith('condition'));
    const body = item.frames.findIndex((frame) => frame.kind.endsWith('body'));
    let left: ShellState | null = null;
    const outs = this.runLoop(state, (entry) => {
      const checked =
        condition === -1
          ? { success: entry, failure: entry }
          : this.runBlock(line, item.blocks[condition] as Block, entry, run);
      const goOn = until ? checked.failure : checked.success;
      left = joinStates(left, until ? checked.success : checked.failure);
      if (goOn === null || body === -1) return { success: goOn, failure: null };
      return this.runBlock(line, item.blocks[body] as Block, goOn, run);
    });
    const after = joinStates(left, outs.success);
    return { success: after, failure: null };
  }

  /** A loop body from `state` until where it may be stops changing; past the rounds allowed, somewhere. */
  private runLoop(state: ShellState, round: (entry: ShellState) => Outs): Outs {
    let entry = state;
    for (let rounds = 0; ; rounds += 1) {
      const ran = round(entry);
      const next = joinStates(entry, joinStates(ran.success, ran.failure)) as ShellState;
      if (sameState(next, entry)) return { success: next, failure: next };
      if (rounds + 1 >= this.limits.maxLoopRounds) {
        const widened = { ...next, pwd: widen(next.pwd, 'a loop keeps changing directory') };
        const last = round(widened);
        const out = joinStates(widened, joinStates(last.success, last.failure));
        return { success: out, failure: out };
      }
      entry = next;
    }
  }

  private runSegment(line: CommandLine, segment: Segment, state: ShellState, run: Run): Outs {
    this.visits += 1;
    if (this.visits > this.limits.maxVisits)
      throw new FlowLimitReached(`more than ${this.limits.maxVisits} segment visits`);
    this.reach.set(segment, joinStates(this.reach.get(segment) ?? null, state) as ShellState);
    this.remember(state.pwd);
    const unwrapped = unwrapLaunchers(segment.argv);
    const head = unwrapped.head;
    const name = literalName(head[0]);
    const bare = unwrapped.launchers.length === 0;
    const prefixed = new Map<string, string | null>();
    for (const assign of segment.assigns) prefixed.set(assign.name, assign.value);
    for (const assign of unwrapped.assigns) prefixed.set(assign.name, assign.value);
    const launched = launchedFrom(state.pwd, unwrapped, this.world);
    this.remember(launched);
    const inShell = this.runNested(line, segment, head, { state, launched }, run);
    if (inShell !== null) return inShell;
    if (segment.argv.length === 0) {
      // GIT_DIR=x alone reaches git only where it is already exported (in the CLI's environment)
      // or `set -a` exports it; where the line does not show whether set -a is on, not its value.
      // A variable exported before (in the CLI's environment, or earlier on the line) stays
      // exported when a later plain assignment changes it, as bash keeps the attribute.
      const allexport = optionOf(state, 'allexport');
      const exported = (name: string) => isFollowedExport(name) && exportedBefore(name, state, this.world);
      const assigned = assignState(
        state,
        segment.assigns
          .filter((assign) => !isFollowedExport(assign.name) || allexport !== false || exported(assign.name))
          .map((assign) => [
            assign.name,
            assign.indexed || assign.append || (allexport === null && !exported(assign.name))
              ? null
              : assign.value,
          ]),
        this.world,
        this.cdNames,
      );
      return { success: assigned, failure: assigned };
    }
    if (name === null) return { success: state, failure: state };
    const functionBodies = bare ? state.functions.get(name) : undefined;
    if (functionBodies !== undefined) return this.call(functionBodies, state, run);
    if (bare && state.aliases.has(name)) {
      // An alias defined on the line: what it runs is not followed; a shadowed cd goes anywhere.
      if (!directoryBuiltins.has(name)) return { success: state, failure: state };
      const moved = {
        ...state,
        pwd: somewhere(`${name} is an alias defined on the line`),
        oldpwd: state.pwd,
      };
      return { success: moved, failure: state };
    }
    if (
      directoryBuiltins.has(name) &&
      unwrapped.launchers.every((launcher) => launcher === 'builtin' || launcher === 'command')
    )
      return runDirectoryBuiltin(name, head.slice(1), prefixed, state, this.world);
    if (!bare) return { success: state, failure: state };
    return this.runBuiltin(name, head, state, run);
  }

  /**
   * The lines a segment runs: `eval` and `source` in this shell (what they change stays: their
   * outcome is the segment's), every other one in a shell of its own. Null when none runs here.
   */
  private runNested(
    line: CommandLine,
    segment: Segment,
    head: readonly Word[],
    at: { state: ShellState; launched: Where },
    run: Run,
  ): Outs | null {
    const { state, launched } = at;
    let inShell: Outs | null = null;
    for (const nested of nestedRunBy(line, segment)) {
      // A line only known at run time is out of reach, like a script in a file: what it may
      // change is not followed (its own verdict is "cannot judge").
      if (!nested.ok) continue;
      const runner = nested.line.runner;
      // ssh's command runs on another machine: it changes no repository of this one.
      if (runner === null || runner.kind === 'remote-command') continue;
      if (sameShell.has(runner.kind)) {
        const ran = this.runBlock(nested.line, this.blockOf(nested.line), state, run);
        inShell = inShell === null ? ran : joinOuts(inShell, ran);
        continue;
      }
      const pwd =
        runner.kind === 'find-exec' && isInDirAction(segment, runner.start)
          ? findStarts(head, launched, this.world)
          : launched;
      this.remember(pwd);
      this.runBlock(nested.line, this.blockOf(nested.line), childState(state, pwd), newRun(0));
    }
    return inShell;
  }

  /** The builtins that change what the flow follows: exit, return, alias, set, shopt, the variables. */
  private runBuiltin(name: string, head: readonly Word[], state: ShellState, run: Run): Outs {
    switch (name) {
      case 'exit':
        run.exited = joinStates(run.exited, state);
        return { success: null, failure: null };
      case 'return':
        if (run.calls === 0) return { success: state, failure: state };
        run.returned = joinStates(run.returned, state);
        return { success: null, failure: null };
      case 'alias': {
        const names = head.slice(1).flatMap((word) => /^([^=\s]+)=/.exec(word.value ?? word.text)?.[1] ?? []);
        const aliased = { ...state, aliases: new Set([...state.aliases, ...names]) };
        return { success: aliased, failure: null };
      }
      case 'set':
      case 'shopt': {
        const set = setShellOptions(name, head.slice(1), state);
        return { success: set, failure: set };
      }
      case 'export':
      case 'declare':
      case 'typeset':
      case 'local':
      case 'readonly': {
        const exports = name === 'export' || optionOf(state, 'allexport') === true;
        const assigned = assignState(
          state,
          this.declared(exports, head.slice(1), state),
          this.world,
          this.cdNames,
        );
        return { success: assigned, failure: assigned };
      }
      case 'unset': {
        const names = head.slice(1).flatMap((word) => (word.value === null ? [] : [word.value]));
        const unset = assignState(
          state,
          names.map((variable) => [variable, undefined]),
          this.world,
          this.cdNames,
        );
        return { success: unset, failure: unset };
      }
      default:
        return { success: state, failure: state };
    }
  }

  /**
   * What `export`, `declare`… assign: export and `-x` reach git; otherwise only a variable already
   * exported does (bash keeps the attribute, for a `local` of an exported name too).
   */
  private declared(
    exports: boolean,
    operands: readonly Word[],
    state: ShellState,
  ): [string, string | null][] {
    const exported = exports || operands.some((word) => /^-[A-Za-z]*x/.test(word.value ?? word.text));
    return operands.flatMap((word): [string, string | null][] => {
      const text = word.value ?? word.text;
      const match = /^([A-Za-z_][A-Za-z0-9_]*)(\+?)=/.exec(text);
      if (match === null) {
        // export GIT_DIR, of a value the line may have set alone: a value the gate does not follow.
        const bare = /^[A-Za-z_][A-Za-z0-9_]*$/.test(text) && word.value !== null ? text : null;
        return exported && bare !== null && isFollowedExport(bare) && !inCallEnvironment(bare, this.world)
          ? [[bare, null]]
          : [];
      }
      const variable = match[1] as string;
      if (isFollowedExport(variable) && !exported && !exportedBefore(variable, state, this.world)) return [];
      const value = word.value === null || match[2] === '+' ? null : word.value.slice(match[0].length);
      return [[variable, value]];
    });
  }

  /** A call of a function the line defined: its body, run where it is called, moves the caller. */
  private call(bodies: readonly { line: CommandLine; frame: Context }[], state: ShellState, run: Run): Outs {
    if (run.calls >= this.limits.maxCalls) {
      const anywhere = {
        ...state,
        pwd: widen(state.pwd, `functions call each other more than ${this.limits.maxCalls} deep`),
      };
      return { success: anywhere, failure: anywhere };
    }
    let outs: Outs = { success: null, failure: null };
    for (const { line, frame } of bodies) {
      const inner: Run = { exited: null, returned: null, calls: run.calls + 1 };
      this.blockOf(line);
      const block = this.frameBlocks.get(frame);
      if (block === undefined) continue;
      const ran = this.runBlock(line, block, state, inner);
      run.exited = joinStates(run.exited, inner.exited);
      outs = joinOuts(outs, {
        success: joinStates(ran.success, inner.returned),
        failure: joinStates(ran.failure, inner.returned),
      });
    }
    return outs;
  }

  private remember(where: Where): void {
    for (const place of where.places)
      if (!this.known.some((known) => known.physical === place.physical)) this.known.push(place);
  }
}

const mainFrame: Context = { kind: 'main', id: -1, start: 0, end: 0, placement: null };

function newRun(calls: number): Run {
  return { exited: null, returned: null, calls };
}

function joinOuts(a: Outs, b: Outs): Outs {
  return { success: joinStates(a.success, b.success), failure: joinStates(a.failure, b.failure) };
}

function literalName(word: Word | undefined): string | null {
  if (word === undefined || word.value === null || word.dynamic) return null;
  return word.value;
}

/** True when a variable is exported before this point: in the CLI's environment, or on the line (an unset clears it). */
function exportedBefore(name: string, state: ShellState, world: DirectoryWorld): boolean {
  return inCallEnvironment(name, world) || state.vars.get(name) !== undefined;
}

/**
 * True when the CLI's environment holds one of git's variables. GIT_CONFIG_COUNT's are not looked
 * up there: their names have no end, and a verdict server is handed only the variables named.
 */
function inCallEnvironment(name: string, world: DirectoryWorld): boolean {
  return exportedVariables.has(name) && world.env[name] !== undefined;
}

/** A state after assignments the gate follows: CDPATH and HOME, and OLDPWD (what `cd -` goes back to). */
function assignState(
  state: ShellState,
  pairs: readonly (readonly [string, string | null | undefined])[],
  world: DirectoryWorld,
  cdNames: ReadonlySet<string>,
): ShellState {
  let next = state;
  for (const [name, value] of pairs) {
    if (trackedVariables.has(name) || isFollowedExport(name) || cdNames.has(name))
      next = { ...next, vars: new Map([...next.vars, [name, value]]) };
    if (name === 'OLDPWD') {
      const oldpwd =
        value === undefined
          ? { places: [], unknown: null }
          : value === null || !isAbsolute(value)
            ? somewhere('OLDPWD is set by an expansion')
            : chdirWhere({ places: [], unknown: null }, value, world);
      next = { ...next, oldpwd };
    }
  }
  return next;
}

/** True when the find action that starts at `start` is -execdir or -okdir: it runs in each found file's folder. */
function isInDirAction(segment: Segment, start: number): boolean {
  const keyword = segment.argv.filter((word) => word.end <= start).at(-1);
  return keyword?.value === '-execdir' || keyword?.value === '-okdir';
}

/**
 * Where a find's -execdir actions run: in the folders of what it finds, below its start points
 * (the paths before its expression, `.` when none). The gate reads them as the start points: a
 * repository nested below one is not told apart.
 */
function findStarts(head: readonly Word[], from: Where, world: DirectoryWorld): Where {
  const starts: (string | null)[] = [];
  let at = 1;
  while (at < head.length && /^-[HLP]+$|^-O\d$/.test(head[at]?.value ?? '')) at += 1;
  if (head[at]?.value === '-D') at += 2;
  for (; at < head.length; at += 1) {
    const word = head[at] as Word;
    if (word.value !== null && /^[-(!),]/.test(word.value)) break;
    starts.push(word.dynamic ? null : word.value);
  }
  if (starts.length === 0) starts.push('.');
  let where: Where = { places: [], unknown: null };
  for (const start of starts) where = joinWhere(where, chdirWhere(from, start, world));
  return where;
}

function thenOf(item: Item): Placement['then'] {
  if (item.kind === 'pipeline') return thenOf(item.stages[item.stages.length - 1] as Item);
  return placementOf(item)?.then ?? null;
}

function placementOf(item: Item): Placement | null {
  switch (item.kind) {
    case 'segment':
      return item.segment;
    case 'compound':
      return item.frames[0]?.placement ?? null;
    case 'pipeline': {
      const last = item.stages[item.stages.length - 1];
      const placement = last === undefined ? null : placementOf(last);
      return placement === null ? null : { ...placement, pipeline: null };
    }
  }
}

/**
 * The block of one list of the statement tree, and of every list under it (each recorded in
 * `blocks` by its frame, so that a function's body is found by its frame): a simple command, a
 * compound with the parts that hold a segment, a pipeline with its stages. A simple command's
 * substitutions (those in a `$(( ))` of its words too) run just before it; the others (in a loop's
 * word list, a compound's redirections, an arithmetic command) run before the first statement
 * that starts after them (a pipeline's stage included), or the list's last one.
 */
function blockOfList(list: StatementList, blocks: Map<Context, Block>): Block {
  const items: Item[] = [];
  const placed: Item[] = []; // every item an apart block may precede: a pipeline's stages, not the pipeline
  const apart: StatementList[] = [...list.substitutions];
  for (const statement of list.statements) {
    const stages = statement.kind === 'pipeline' ? statement.stages : [statement];
    const made = stages.flatMap((stage) => {
      if (stage.kind === 'compound') apart.push(...stage.substitutions);
      const item = itemOf(stage, blocks);
      return item === null ? [] : [item];
    });
    placed.push(...made);
    if (statement.kind !== 'pipeline') items.push(...made);
    else if (made[0] !== undefined)
      items.push({ kind: 'pipeline', stages: made, start: made[0].start, before: [] });
  }
  placed.sort((a, b) => a.start - b.start);
  for (const child of bySegments(apart)) {
    const block = blockOfList(child, blocks);
    const next = placed.find((item) => item.start >= child.frame.start) ?? placed.at(-1);
    if (next !== undefined) next.before.push(block);
    else {
      const item: Item = {
        kind: 'compound',
        frames: [child.frame],
        blocks: [block],
        start: child.frame.start,
        before: [],
      };
      placed.push(item);
      items.push(item);
    }
  }
  const block = { frame: list.frame, items };
  blocks.set(list.frame, block);
  return block;
}

/** The item of a simple or compound statement; null for a compound none of whose parts holds a segment. */
function itemOf(statement: SimpleStatement | CompoundStatement, blocks: Map<Context, Block>): Item | null {
  if (statement.kind === 'simple') {
    // Its words' `$( )`, backticks, `<( )` and `$(( ))` (with the substitutions inside) all run
    // just before it, in the directory it starts in.
    const before = bySegments(statement.substitutions).map((each) => blockOfList(each, blocks));
    return { kind: 'segment', segment: statement.segment, start: statement.segment.start, before };
  }
  const parts = statement.parts.filter((part) => segmentsUnder(part).length > 0);
  const first = parts[0];
  if (first === undefined) return null;
  const partBlocks = parts.map((part) => blockOfList(part, blocks));
  return {
    kind: 'compound',
    frames: parts.map((part) => part.frame),
    blocks: partBlocks,
    start: first.frame.start,
    before: [],
  };
}

/** The lists that hold a segment, in the order of their first segment. */
function bySegments(lists: readonly StatementList[]): StatementList[] {
  return lists
    .map((list) => ({ list, first: segmentsUnder(list)[0]?.index }))
    .filter((each): each is { list: StatementList; first: number } => each.first !== undefined)
    .sort((a, b) => a.first - b.first)
    .map((each) => each.list);
}
