import type { CompoundStatement, ListOp, Segment, StatementList } from '@kit/shell-segments';
import {
  findStatusCaptures,
  isCommandSubstitution,
  leafOf,
  listOfFrame,
  ownedSubstitutions,
  segmentsUnder,
} from '@kit/shell-segments';
import { roleOf, type Shell } from './shell.ts';
import { isOptionOn } from './shell-options.ts';
import { type Statement, statementGroups, statementsIn, treeStatementOf } from './statements.ts';

/**
 * Whether the status a list ends with is a check's (rule 3's "carries"), as bash gives it: `&&`
 * keeps it, `||` and `|` give the right side's, a compound gives the status of the last command it
 * ran (an if / case: the branch taken, or 0 when none is), an assignment its last command
 * substitution's.
 */

/** What `$?` holds when a statement starts: whether the status before it is the check's. */
export type Relay = () => boolean;

const statusBuiltins = new Set(['exit', 'return']);
const testCommands = new Set(['[', '[[', 'test', '((']);

/** A unit of a list as its statuses run: a pipeline's stages, a simple statement, or a whole compound. */
type Unit =
  | { group: Statement[]; then: ListOp | null }
  | { compound: CompoundStatement; then: ListOp | null };

/** Whether the last and-or list of a list carries a check's status. */
export function listCarries(shell: Shell, groups: Statement[][], before: Relay = () => false): boolean {
  const units = unitsOf(shell, groups);
  const carries = (k: number): boolean => {
    const unit = units[k] as Unit;
    const relay: Relay = () => (k > 0 ? carries(k - 1) : before());
    if (unitCarries(shell, unit, relay)) return true;
    const previous = units[k - 1];
    return previous !== undefined && previous.then === '&&' && carries(k - 1);
  };
  return units.length > 0 && carries(units.length - 1);
}

/** The statements of a frame's list, as listCarries reads them. */
function frameCarries(shell: Shell, list: StatementList, relay: Relay): boolean {
  return listCarries(shell, statementGroups(shell, list.frame), relay);
}

/** The groups with the parts of one if / case / loop folded into that compound. */
function unitsOf(shell: Shell, groups: Statement[][]): Unit[] {
  const units: Unit[] = [];
  for (const group of groups) {
    const only = group.length === 1 ? group[0] : undefined;
    const tree = only?.kind === 'frame' ? treeStatementOf(shell, only) : undefined;
    if (tree?.kind !== 'compound' || tree.type === 'subshell' || tree.type === 'group') {
      units.push({ group, then: group[group.length - 1]?.then ?? null });
      continue;
    }
    const last = units[units.length - 1];
    if (last !== undefined && 'compound' in last && last.compound === tree) continue;
    units.push({ compound: tree, then: tree.placement.then });
  }
  return units;
}

function unitCarries(shell: Shell, unit: Unit, relay: Relay): boolean {
  if ('compound' in unit) return compoundCarries(shell, unit.compound, relay);
  const { group } = unit;
  const last = group[group.length - 1] as Statement;
  const pipefail =
    last.kind === 'segment' && group.length > 1 && isOptionOn(shell.segments, last.segment, 'pipefail');
  return (pipefail ? group : [last]).some((statement) => carriesStatus(shell, statement, relay));
}

/**
 * Whether a statement's own status is a check's: a gate; `exit` / `return` (of `$?`: what the
 * statement before held; an explicit `exit 0` is deliberate and carries); a test of `$?` or of a
 * captured `rc=$?`; an assignment whose last command substitution carries; a subshell or group
 * whose list does. An `echo` / `printf` of `$?` is not: it reports its own 0.
 */
function carriesStatus(shell: Shell, statement: Statement, relay: Relay): boolean {
  if (statement.kind === 'frame') {
    const list = listOfFrame(shell.line, statement.frame);
    const kind = statement.frame.kind;
    return (
      list !== undefined && (kind === 'subshell' || kind === 'group') && frameCarries(shell, list, relay)
    );
  }
  const segment = statement.segment;
  if (roleOf(shell, segment).gate) return true;
  if (segment.argv.length === 0)
    return segment.assigns.length > 0 && assignmentCarries(shell, segment, relay);
  const name = segment.argv[0]?.value ?? '';
  if (statusBuiltins.has(name)) {
    const operand = segment.argv[1];
    if (
      operand === undefined ||
      (operand.params.length > 0 && operand.params.every((param) => param === '?'))
    )
      return relay();
    // An explicit `exit 0` (any literal) is deliberate: the status is the one the line chose.
    return true;
  }
  if (testCommands.has(name)) {
    if (segment.params.includes('?')) return relay();
    const captured = capturedNames(shell);
    return segment.params.some((param) => captured.has(param));
  }
  return false;
}

/** An assignment's status is its last command substitution's (`x=$(make check)` carries, `x=$(date)` does not). */
function assignmentCarries(shell: Shell, segment: Segment, relay: Relay): boolean {
  const substitutions = ownedSubstitutions(leafOf(shell.line, segment)).filter((list) =>
    isCommandSubstitution(list.frame.kind),
  );
  const last = substitutions.sort((a, b) => a.frame.start - b.frame.start).at(-1);
  return last !== undefined && frameCarries(shell, last, relay);
}

const captureNames = new WeakMap<Shell, Set<string>>();

/** The names a shell captures `$?` into (rc=$?). */
function capturedNames(shell: Shell): Set<string> {
  let names = captureNames.get(shell);
  if (names === undefined) {
    names = new Set(findStatusCaptures(shell.line).map((capture) => capture.name));
    captureNames.set(shell, names);
  }
  return names;
}

/**
 * How a branch of a compound may end: with a check's status; with a status no check's failure
 * hides (no check ran on it); after a test of a check's status that may be its passing side
 * (`if [ $? -ne 0 ]; then exit 1; fi`: which side fails is not read); or with a failure turned green.
 */
type Ending = 'carries' | 'clean' | 'tested' | 'lost';
/** What a branch starts after: a check that passed or failed, a test of a status either way, or no check. */
type Entry = 'pass' | 'fail' | 'unknown' | 'neutral';

/**
 * A compound's status is the last command it ran's: it carries when no branch turns a failed check
 * green and some branch carries one; a branch that runs no check ("clean") only when no gate stands
 * before the compound (`make check; if [ -f x ]; then make lint; fi` loses make check's status when
 * x is missing). Loops other than one that ends only once its check passed (`until make check`,
 * `while ! make check`) give their last round's status and carry nothing of a check in their body.
 */
function compoundCarries(shell: Shell, compound: CompoundStatement, relay: Relay): boolean {
  const endings = compoundEndings(shell, compound, relay);
  if (endings.includes('lost') || !endings.includes('carries')) return false;
  return !endings.includes('clean') || !gateBefore(shell, compound.start);
}

function compoundEndings(shell: Shell, compound: CompoundStatement, relay: Relay): Ending[] {
  switch (compound.type) {
    case 'if':
      return ifEndings(shell, compound.parts, relay);
    case 'case':
      // No arm matching gives 0; `$?` in an arm is still the status before the case.
      return [...compound.parts.map((arm) => branchEnding(shell, arm, 'neutral', relay)), 'clean'];
    case 'while':
    case 'until':
      return loopEndings(shell, compound);
    default:
      return compound.parts.some((part) => hasGate(shell, part)) ? ['lost'] : ['clean'];
  }
}

/** if c1; then b1; elif c2; then b2; else b3; fi: each body after its condition, and no else as a clean 0. */
function ifEndings(shell: Shell, parts: StatementList[], relay: Relay): Ending[] {
  const endings: Ending[] = [];
  let pending: Entry = 'neutral'; // what the else side of the previous conditions carries in
  let before = relay;
  for (let i = 0; i < parts.length; i += 2) {
    const condition = parts[i] as StatementList;
    const body = parts[i + 1];
    if (condition.frame.kind === 'else-body' || body === undefined) {
      endings.push(branchEnding(shell, condition, pending, before));
      return endings;
    }
    const outcome = conditionOutcome(shell, condition, before);
    if (outcome === 'lost') return ['lost'];
    const carried = outcome.then !== 'neutral';
    const after: Relay = () => carried;
    endings.push(branchEnding(shell, body, worse(pending, outcome.then), after));
    pending = worse(pending, outcome.else);
    before = after;
  }
  endings.push(emptyEnding[pending]);
  return endings;
}

/** Which side of a condition a check's pass and failure go: by its last command, a `!` flips it; a test of a status goes either way. */
function conditionOutcome(
  shell: Shell,
  condition: StatementList,
  relay: Relay,
): 'lost' | { then: Entry; else: Entry } {
  const carries = frameCarries(shell, condition, relay);
  if (!carries) return hasGate(shell, condition) ? 'lost' : { then: 'neutral', else: 'neutral' };
  const last = statementsIn(shell, condition.frame).at(-1);
  if (last?.kind !== 'segment') return { then: 'unknown', else: 'unknown' };
  const segment = last.segment;
  if (!roleOf(shell, segment).gate) return { then: 'unknown', else: 'unknown' };
  return segment.negated ? { then: 'fail', else: 'pass' } : { then: 'pass', else: 'fail' };
}

const severity: Entry[] = ['neutral', 'pass', 'unknown', 'fail'];

function worse(a: Entry, b: Entry): Entry {
  return severity.indexOf(a) >= severity.indexOf(b) ? a : b;
}

/** How a branch that runs nothing new ends (an if without else, no case arm matching): as it started. */
const emptyEnding: Record<Entry, Ending> = {
  pass: 'carries',
  fail: 'lost',
  unknown: 'tested',
  neutral: 'clean',
};

/** How a body ends, given what it starts after. */
function branchEnding(shell: Shell, body: StatementList, entry: Entry, relay: Relay): Ending {
  if (frameCarries(shell, body, relay)) return 'carries';
  return hasGate(shell, body) ? 'lost' : emptyEnding[entry];
}

/** until make check / while ! make check end only once it passed (unless a `break` leaves first). */
function loopEndings(shell: Shell, compound: CompoundStatement): Ending[] {
  const [condition, body] = compound.parts;
  if (condition === undefined || body === undefined) return ['lost'];
  const last = statementsIn(shell, condition.frame).at(-1);
  const gate = last?.kind === 'segment' && roleOf(shell, last.segment).gate ? last.segment : null;
  const endsOnPass = gate !== null && (compound.type === 'until') !== gate.negated;
  const breaks = segmentsUnder(body).some((segment) => segment.argv[0]?.value === 'break');
  if (endsOnPass && !breaks) return ['carries'];
  return hasGate(shell, condition) || hasGate(shell, body) ? ['lost'] : ['clean'];
}

function hasGate(shell: Shell, list: StatementList): boolean {
  return segmentsUnder(list).some((segment) => roleOf(shell, segment).containsGate);
}

/** Whether a check runs before this offset of the shell. */
function gateBefore(shell: Shell, offset: number): boolean {
  return shell.segments.some((segment, i) => segment.end <= offset && shell.roles[i]?.containsGate);
}
