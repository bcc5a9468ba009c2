import type {
  CompoundStatement,
  Context,
  ListOp,
  Placement,
  Segment,
  SimpleStatement,
  Statement as TreeStatement,
} from '@kit/shell-segments';
import {
  enclosingStatement,
  findStatusCaptures,
  leafOf,
  listOf,
  listOfFrame,
  segmentsUnder,
  substitutionOwner,
} from '@kit/shell-segments';
import type { Shell } from './shell.ts';

/**
 * A statement of a list: a simple command (one segment) or a compound one (a frame with its placement).
 * It stays beside the tree's statements because the rules' unit is a compound's part, not the whole
 * compound: a rewrite edits at a part's own span (`if …; then` up to the body's frame end, before its
 * `fi`), a relay or a check is the part it ends in, and conditionExit's statement runs from an if /
 * while condition to a later part, which no node of the tree is. Its spans are what the rewrites
 * splice at; finding one (isReRaised) walks the tree.
 */
export type Statement =
  | {
      kind: 'segment';
      segment: Segment;
      start: number;
      end: number;
      then: ListOp | null;
      placement: Placement;
    }
  | { kind: 'frame'; frame: Context; start: number; end: number; then: ListOp | null; placement: Placement };

/** A simple command as a statement. */
export function segmentStatement(segment: Segment): Statement {
  return {
    kind: 'segment',
    segment,
    start: segment.start,
    end: segment.end,
    then: segment.then,
    placement: segment,
  };
}

/** A compound command (a frame with its own placement) as a statement. */
export function compoundStatement(frame: Context, placement: Placement): Statement {
  return { kind: 'frame', frame, start: frame.start, end: frame.end, then: placement.then, placement };
}

/** The statement of the line's tree a statement is: a segment's leaf, a compound part's compound. */
export function treeStatementOf(
  shell: Shell,
  statement: Statement,
): SimpleStatement | CompoundStatement | undefined {
  if (statement.kind === 'segment') return leafOf(shell.line, statement.segment);
  const part = listOfFrame(shell.line, statement.frame);
  return part === undefined ? undefined : (enclosingStatement(part) ?? undefined);
}

/** The frame of the list a statement stands in: a segment's innermost frame, the frame around a compound. */
export function frameAround(shell: Shell, statement: Statement): Context | undefined {
  const tree = treeStatementOf(shell, statement);
  return tree === undefined ? undefined : listOf(tree).frame;
}

/** The segment whose words hold a `$( )`, backticks or `<( )` frame of this shell (through `$(( ))`), if any. */
export function ownerOf(shell: Shell, frame: Context): Segment | undefined {
  const list = listOfFrame(shell.line, frame);
  return list === undefined ? undefined : substitutionOwner(list)?.segment;
}

/**
 * The statements directly in a frame grouped as its list runs them: a pipeline's stages together,
 * each other statement (each part of a compound) alone.
 */
export function statementGroups(shell: Shell, frame: Context): Statement[][] {
  const list = listOfFrame(shell.line, frame);
  if (list === undefined) return [];
  return list.statements.flatMap((statement) =>
    statement.kind === 'pipeline'
      ? [statementsOfTree(statement)].filter((stages) => stages.length > 0)
      : statementsOfTree(statement).map((each) => [each]),
  );
}

/** The kind of a statement: `segment`, or its compound's frame kind (`subshell`, `group`, `if-body`…). */
export function statementKind(statement: Statement): string {
  return statement.kind === 'segment' ? 'segment' : statement.frame.kind;
}

/** True when no statement of `parent` (at any depth under its list) starts after `frame` ends. */
export function isLastIn(shell: Shell, frame: Context, parent: Context): boolean {
  const list = listOfFrame(shell.line, parent);
  return list === undefined || !segmentsUnder(list).some((segment) => segment.start >= frame.end);
}

/**
 * The statements directly in a frame, in order: its own segments, and one statement per part of
 * each compound right under it (an `if` gives one per part) that holds a segment; a pipeline gives
 * its stages. Substitutions belong to their segment.
 */
export function statementsIn(shell: Shell, frame: Context): Statement[] {
  const list = listOfFrame(shell.line, frame);
  if (list === undefined) return [];
  return list.statements.flatMap(statementsOfTree).sort((a, b) => a.start - b.start);
}

/** One statement of the tree as the rules' statements: a segment, or a compound's parts; a pipeline's stages. */
export function statementsOfTree(statement: TreeStatement): Statement[] {
  if (statement.kind === 'pipeline') return statement.stages.flatMap(statementsOfTree);
  if (statement.kind === 'simple') return [segmentStatement(statement.segment)];
  return partsOf(statement);
}

function partsOf(compound: CompoundStatement): Statement[] {
  return compound.parts.flatMap((part) => {
    const placement = part.frame.placement;
    return placement === null || segmentsUnder(part).length === 0
      ? []
      : [compoundStatement(part.frame, placement)];
  });
}

/** The compound kinds whose status is the status of their last statement. */
const carryingKinds = new Set([
  'subshell',
  'group',
  'if-body',
  'else-body',
  'case-body',
  'for-body',
  'while-body',
  'until-body',
]);

/**
 * Where a segment's status goes once it leaves the segment: up through every compound it ends
 * ("closing every group it sits in"), to the list operator that follows the outermost one; `then`
 * is null when nothing follows, or when an if / while / until condition tests it. A
 * status captured right after its statement and re-raised at the end of the list
 * (`( make check > log; rc=$?; tail < log; exit $rc )`) leaves that list as the list's own status.
 */
export function statusExit(shell: Shell, segment: Segment): { then: ListOp | null; statement: Statement } {
  let then = segment.then;
  let statement = segmentStatement(segment);
  let last =
    segment.last || isReRaised(shell, statement, segment.context[segment.context.length - 1] as Context);
  for (let i = segment.context.length - 1; i > 0 && last; i--) {
    const frame = segment.context[i] as Context;
    if (conditionKinds.has(frame.kind)) return conditionExit(shell, segment, i) ?? { then: null, statement };
    if (!carryingKinds.has(frame.kind) || frame.placement === null) break;
    then = frame.placement.then;
    statement = compoundStatement(frame, frame.placement);
    const parent = segment.context[i - 1] as Context;
    last = isLastIn(shell, frame, parent) || isReRaised(shell, statement, parent);
  }
  return { then, statement };
}

const reRaisers = new Set(['exit', 'return']);

/** The frames whose last status an if / while / until tests. */
export const conditionKinds: ReadonlySet<string> = new Set([
  'if-condition',
  'while-condition',
  'until-condition',
]);

/** Whether a part of a compound ends the shell: its last statement is `exit` or `return`. */
function endsTheShell(shell: Shell, part: Context): boolean {
  const last = statementsIn(shell, part).at(-1);
  return last?.kind === 'segment' && reRaisers.has(last.segment.argv[0]?.value ?? '');
}

/**
 * Where a check's status goes from the end of an if / while / until condition: null when the
 * compound protects what follows (a failed check exits: `if ! make check; then exit 1; fi`,
 * `if make check; then …; else exit 1; fi`; or the loop only ends once the check passed:
 * `until make check; do …; done`, `while ! make check`); otherwise the whole compound is the
 * statement whose `;` lets a later change run whatever the check said (`if make check; then echo
 * ok; fi; git push`), its own branches not counted as later.
 */
function conditionExit(
  shell: Shell,
  segment: Segment,
  at: number,
): { then: ListOp | null; statement: Statement } | null {
  const condition = segment.context[at] as Context;
  if (condition.placement === null) return null;
  const list = listOfFrame(shell.line, condition);
  const compound = list && enclosingStatement(list);
  if (list === undefined || compound?.kind !== 'compound') return null;
  const after = compound.parts.slice(compound.parts.indexOf(list) + 1).map((part) => part.frame);
  const negated = segment.negated;
  let parts: Context[];
  if (condition.kind === 'if-condition') {
    // Only the first condition of an if: an elif's is tested by a chain this does not follow.
    if (compound.parts[0] !== list) return null;
    parts = after;
    const thenBody = parts[0];
    const elseBody = parts.length === 2 && parts[1]?.kind === 'else-body' ? parts[1] : undefined;
    const failureBranch = negated ? thenBody : elseBody;
    if (failureBranch && endsTheShell(shell, failureBranch)) return null;
  } else {
    parts = after.slice(0, 1);
    const endsOnPass = (condition.kind === 'until-condition') !== negated;
    if (endsOnPass) return null;
  }
  const last = parts.at(-1) ?? condition;
  const then = condition.placement.then;
  return {
    then,
    statement: {
      kind: 'frame',
      frame: last,
      start: condition.start,
      end: last.end,
      then,
      placement: condition.placement,
    },
  };
}

/** Frames whose variables the rest of the shell still sees: not subshells, substitutions, loops or function bodies. */
const sameShellKinds = new Set(['main', 'group', 'if-condition', 'if-body', 'else-body', 'case-body']);

/**
 * Whether a variable assigned right after a statement (`rc=$?`) is still set at the end of the
 * shell's main list: every frame around the statement's list runs in that same shell. `segment` is
 * one inside the statement, which gives the frames.
 */
export function isCapturedInShell(segment: Segment, statement: Statement): boolean {
  const outer =
    statement.kind === 'segment'
      ? segment.context
      : segment.context.slice(0, segment.context.indexOf(statement.frame));
  return outer.every((frame) => sameShellKinds.has(frame.kind));
}

/**
 * True when a statement of a subshell or group is followed by `NAME=$?` and the list ends in
 * `exit $NAME` / `return $NAME`, with no state change in between: the list's status is the statement's.
 */
function isReRaised(shell: Shell, statement: Statement, frame: Context): boolean {
  if (
    (statement.then !== ';' && statement.then !== 'newline') ||
    (frame.kind !== 'subshell' && frame.kind !== 'group')
  )
    return false;
  const own = treeStatementOf(shell, statement);
  if (own === undefined || listOf(own).frame !== frame || !isLastPart(own, statement)) return false;
  const rest = statementsAfter(own);
  const next = rest[0];
  const last = rest.at(-1);
  if (next?.kind !== 'segment' || last?.kind !== 'segment' || next === last) return false;
  const capture = findStatusCaptures(shell.line).find((each) => each.capture === next.segment);
  if (!capture?.readers.includes(last.segment) || !reRaisers.has(last.segment.argv[0]?.value ?? ''))
    return false;
  return !shell.segments.some(
    (segment, i) => segment.start >= next.end && segment.end <= last.start && shell.roles[i]?.containsMutator,
  );
}

/** True for a simple command's statement, and for the last part of a compound that holds a segment. */
function isLastPart(own: TreeStatement, statement: Statement): boolean {
  if (statement.kind === 'segment') return true;
  const last = statementsOfTree(own).at(-1);
  return last?.kind === 'frame' && last.frame === statement.frame;
}

/** The rules' statements after a tree statement in its list, in order: the rest of its pipeline, then the next statements. */
function statementsAfter(own: SimpleStatement | CompoundStatement): Statement[] {
  const pipeline = own.parent.kind === 'pipeline' ? own.parent : null;
  const stages = pipeline === null ? [] : pipeline.stages.slice(pipeline.stages.indexOf(own) + 1);
  const list = listOf(own);
  const after = list.statements.slice(list.statements.indexOf(pipeline ?? own) + 1);
  return [...stages, ...after].flatMap(statementsOfTree);
}
