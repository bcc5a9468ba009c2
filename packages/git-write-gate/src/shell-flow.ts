import { isAbsolute } from 'node:path';
import {
  type CommandLine,
  type Context,
  type ContextKind,
  nestedRunBy,
  type Placement,
  type Segment,
  unwrapLaunchers,
  type Word,
} from '@kit/shell-segments';
import {
  chdirWhere,
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
  gitVariables,
} from './shell-state.ts';

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

const substitutionKinds = new Set<ContextKind>([
  'command-substitution',
  'backticks',
  'process-substitution',
  'arithmetic',
]);
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

  constructor(
    private readonly world: DirectoryWorld,
    private readonly limits: FlowLimits,
  ) {}

  /** Runs `line` (the top one, or a nested one in a shell of its own) from `state`. */
  runLine(line: CommandLine, state: ShellState): Outs {
    return this.runBlock(line, this.blockOf(line), state, newRun(0));
  }

  private blockOf(line: CommandLine): Block {
    let block = this.blocks.get(line);
    if (block === undefined) {
      const main = line.segments[0]?.context[0];
      block = main === undefined ? { frame: mainFrame, items: [] } : buildBlock(line, main, line.segments, 0);
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
        for (const stage of item.stages) this.runApart(line, stage, state, run);
        return { success: state, failure: state };
      case 'compound':
        return this.runCompound(line, item, state, run);
    }
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

    let launched = state.pwd;
    for (const directory of unwrapped.directories)
      launched = chdirWhere(launched, directory.dynamic ? null : directory.value, this.world);
    this.remember(launched);
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
    if (inShell !== null) return inShell;

    if (segment.argv.length === 0) {
      // GIT_DIR=x alone reaches git only where it is already exported (in the CLI's environment).
      const assigned = assignState(
        state,
        segment.assigns
          .filter((assign) => !gitVariables.has(assign.name) || this.world.env[assign.name] !== undefined)
          .map((assign) => [assign.name, assign.indexed || assign.append ? null : assign.value]),
        this.world,
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
      case 'export':
      case 'declare':
      case 'typeset':
      case 'local':
      case 'readonly': {
        const operands = head.slice(1);
        // export, declare -x: the variables reach git; without -x only one already exported does.
        const exported =
          name === 'export' || operands.some((word) => /^-[A-Za-z]*x/.test(word.value ?? word.text));
        const pairs = operands.flatMap((word): [string, string | null][] => {
          const text = word.value ?? word.text;
          const match = /^([A-Za-z_][A-Za-z0-9_]*)(\+?)=/.exec(text);
          if (match === null) {
            // export GIT_DIR, of a value the line may have set alone: a value the gate does not follow.
            const bare = /^[A-Za-z_][A-Za-z0-9_]*$/.test(text) && word.value !== null ? text : null;
            return exported && bare !== null && gitVariables.has(bare) && this.world.env[bare] === undefined
              ? [[bare, null]]
              : [];
          }
          const variable = match[1] as string;
          if (gitVariables.has(variable) && !exported && this.world.env[variable] === undefined) return [];
          const value = word.value === null || match[2] === '+' ? null : word.value.slice(match[0].length);
          return [[variable, value]];
        });
        const assigned = assignState(state, pairs, this.world);
        return { success: assigned, failure: assigned };
      }
      case 'unset': {
        const names = head.slice(1).flatMap((word) => (word.value === null ? [] : [word.value]));
        const unset = assignState(
          state,
          names.map((variable) => [variable, undefined]),
          this.world,
        );
        return { success: unset, failure: unset };
      }
      default:
        return { success: state, failure: state };
    }
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
      const block = findBlock(this.blockOf(line), frame);
      if (block === null) continue;
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

/** A state after assignments the gate follows: CDPATH and HOME, and OLDPWD (what `cd -` goes back to). */
function assignState(
  state: ShellState,
  pairs: readonly (readonly [string, string | null | undefined])[],
  world: DirectoryWorld,
): ShellState {
  let next = state;
  for (const [name, value] of pairs) {
    if (trackedVariables.has(name) || gitVariables.has(name))
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

function pipelineIdOf(item: Item): number | null {
  if (item.kind === 'segment') return item.segment.pipeline?.id ?? null;
  if (item.kind === 'compound') return item.frames[0]?.placement?.pipeline?.id ?? null;
  return null;
}

/**
 * The items of `frame`'s list from the segments under it (each segment's context holds `frame`
 * at `depth`): a segment standing in the list itself, a compound statement (the frames of one
 * if, while or case grouped by their clause), and stages of one pipeline grouped together.
 * Substitutions belong to the segment whose words hold them; others (in a loop's word list, a
 * compound's redirections) run just before the next statement.
 */
function buildBlock(line: CommandLine, frame: Context, members: readonly Segment[], depth: number): Block {
  const items: Item[] = [];
  const compounds = new Map<string, { frames: Context[]; members: Map<Context, Segment[]> }>();
  const owned = new Map<Segment, Map<Context, Segment[]>>();
  const apart = new Map<Context, Segment[]>();
  for (const segment of members) {
    const child = segment.context[depth + 1];
    if (child === undefined) {
      items.push({ kind: 'segment', segment, start: segment.start, before: [] });
      continue;
    }
    if (substitutionKinds.has(child.kind)) {
      const owner = child.owner === undefined ? undefined : line.segments[child.owner];
      const target =
        owner !== undefined && owner.context.length === depth + 1 && owner.context[depth] === frame
          ? owner
          : null;
      const groups = target === null ? apart : (owned.get(target) ?? new Map<Context, Segment[]>());
      if (target !== null) owned.set(target, groups);
      groups.set(child, [...(groups.get(child) ?? []), segment]);
      continue;
    }
    const key = child.clause === undefined ? `frame ${child.id}` : `clause ${child.clause}`;
    const group = compounds.get(key) ?? { frames: [], members: new Map<Context, Segment[]>() };
    compounds.set(key, group);
    if (!group.frames.includes(child)) group.frames.push(child);
    group.members.set(child, [...(group.members.get(child) ?? []), segment]);
  }
  for (const group of compounds.values()) {
    const frames = [...group.frames].sort((a, b) => a.start - b.start);
    items.push({
      kind: 'compound',
      frames,
      blocks: frames.map((each) => buildBlock(line, each, group.members.get(each) ?? [], depth + 1)),
      start: frames[0]?.start ?? 0,
      before: [],
    });
  }
  items.sort((a, b) => a.start - b.start);
  for (const item of items) {
    if (item.kind !== 'segment') continue;
    const groups = owned.get(item.segment);
    if (groups !== undefined)
      for (const [child, inside] of groups) item.before.push(buildBlock(line, child, inside, depth + 1));
  }
  for (const [child, inside] of apart) {
    const block = buildBlock(line, child, inside, depth + 1);
    const next = items.find((item) => item.start >= child.start) ?? items.at(-1);
    if (next !== undefined) next.before.push(block);
    else items.push({ kind: 'compound', frames: [child], blocks: [block], start: child.start, before: [] });
  }
  return { frame, items: groupPipelines(items) };
}

function groupPipelines(items: Item[]): Item[] {
  const grouped: Item[] = [];
  for (const item of items) {
    const id = pipelineIdOf(item);
    const last = grouped.at(-1);
    if (id !== null && last?.kind === 'pipeline' && pipelineIdOf(last.stages[0] as Item) === id) {
      last.stages.push(item);
      continue;
    }
    grouped.push(id === null ? item : { kind: 'pipeline', stages: [item], start: item.start, before: [] });
  }
  return grouped;
}

/** The block of a function's body frame inside a line's block tree. */
function findBlock(block: Block, frame: Context): Block | null {
  for (const item of block.items) {
    const found = findInItem(item, frame);
    if (found !== null) return found;
  }
  return null;
}

function findInItem(item: Item, frame: Context): Block | null {
  for (const before of item.before) {
    if (before.frame === frame) return before;
    const found = findBlock(before, frame);
    if (found !== null) return found;
  }
  if (item.kind === 'pipeline') {
    for (const stage of item.stages) {
      const found = findInItem(stage, frame);
      if (found !== null) return found;
    }
  }
  if (item.kind === 'compound') {
    for (const block of item.blocks) {
      if (block.frame === frame) return block;
      const found = findBlock(block, frame);
      if (found !== null) return found;
    }
  }
  return null;
}
