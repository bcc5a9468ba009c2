import type {
  CommandLine,
  CompoundStatement,
  Context,
  ContextKind,
  ListOp,
  PipelineStatement,
  Segment,
  SimpleStatement,
  Statement,
  StatementList,
} from './types.ts';

// The statement tree of a command line (CommandLine.statements): lists of statements, as mvdan/sh's
// users walk `Stmt`. The segmenter builds it in its own walk; this module names its shapes' helpers
// and answers the questions a guard asks of it: what follows a statement, what encloses it, which
// segments stand under it.

/** What a statement is added to: a list, or a pipeline (its stages). */
export type Container = StatementList | PipelineStatement;

/** What a substitution hangs on: the simple or compound statement whose words hold it, or a list. */
export type SubstitutionHolder = SimpleStatement | CompoundStatement | StatementList;

const substitutionKinds: ReadonlySet<ContextKind> = new Set([
  'command-substitution',
  'backticks',
  'process-substitution',
  'arithmetic',
]);

/**
 * True for a frame that holds its own statements inside a word: `$( )`, backticks, `<( )` / `>( )`,
 * `$(( ))`. Its statements are not statements of the list around it: they run while the words of
 * the statement that holds them are expanded.
 */
export function isSubstitution(kind: ContextKind): boolean {
  return substitutionKinds.has(kind);
}

/** True for a command substitution, `$( )` or backticks: a frame whose output becomes words. */
export function isCommandSubstitution(kind: ContextKind): boolean {
  return kind === 'command-substitution' || kind === 'backticks';
}

/** A new, empty list of statements in `frame`. */
export function newList(frame: Context, parent: StatementList['parent']): StatementList {
  return { kind: 'list', frame, statements: [], substitutions: [], parent };
}

/** Adds a statement to a list, or a stage to a pipeline. */
export function addStatement(into: Container, statement: Statement): void {
  if (into.kind === 'list') into.statements.push(statement);
  else if (statement.kind !== 'pipeline') into.stages.push(statement);
}

/**
 * Sets each leaf's segment once the segmenter has made its drafts segments, and its span. A leaf
 * whose draft has no segment (none: every draft becomes one) keeps what it had.
 */
export function relinkLeaves<Draft>(
  leaves: ReadonlyMap<SimpleStatement, Draft>,
  segmentOf: ReadonlyMap<Draft, Segment>,
): void {
  for (const [leaf, draft] of leaves) {
    const segment = segmentOf.get(draft);
    if (segment === undefined) continue;
    leaf.segment = segment;
    leaf.start = segment.start;
    leaf.end = segment.end;
  }
}

/** Replaces leaves' segments by others (a segment rebuilt after the walk); a leaf not in `map` stays. */
export function replaceSegments(statements: readonly Statement[], map: ReadonlyMap<Segment, Segment>): void {
  for (const { statement } of walkStatements(statements)) {
    if (statement.kind !== 'simple') continue;
    const replaced = map.get(statement.segment);
    if (replaced !== undefined) statement.segment = replaced;
  }
}

/** One statement met by walkStatements, with the list it stands in (a stage: the pipeline's list). */
export interface StatementVisit {
  statement: Statement;
  list: StatementList;
}

/**
 * Every statement under `statements`, depth first in source order: each statement, then its
 * substitutions, then (a pipeline) its stages or (a compound) its parts' statements.
 */
export function* walkStatements(
  statements: readonly Statement[],
): Generator<StatementVisit, void, undefined> {
  const stack: Statement[] = [...statements].reverse();
  for (let statement = stack.pop(); statement !== undefined; statement = stack.pop()) {
    yield { statement, list: listOf(statement) };
    stack.push(...childrenOf(statement).reverse());
  }
}

/** The statements right under one: a pipeline's stages, a compound's parts' and its substitutions' statements. */
function childrenOf(statement: Statement): Statement[] {
  if (statement.kind === 'pipeline') return [...statement.stages];
  const lists = statement.kind === 'simple' ? [] : statement.parts;
  return [...substitutionLists(statement.substitutions), ...lists].flatMap((list) => list.statements);
}

/** The lists of substitutions, those nested in an arithmetic frame included, in order. */
function substitutionLists(lists: readonly StatementList[]): StatementList[] {
  return lists.flatMap((list) => [list, ...substitutionLists(list.substitutions)]);
}

/** The list a statement stands in: a pipeline stage stands in its pipeline's list. */
export function listOf(statement: Statement): StatementList {
  return statement.parent.kind === 'list' ? statement.parent : statement.parent.parent;
}

/** Every segment under a statement or a list, substitutions included, in document order. */
export function segmentsUnder(node: Statement | StatementList): Segment[] {
  const statements = node.kind === 'list' ? [...node.statements] : [node];
  const lists = node.kind === 'list' ? substitutionLists(node.substitutions) : [];
  const segments = [...statements, ...lists.flatMap((list) => list.statements)];
  const found = [...walkStatements(segments)].flatMap(({ statement }) =>
    statement.kind === 'simple' ? [statement.segment] : [],
  );
  return found.sort((a, b) => a.index - b.index);
}

/** The list operator written after a statement (a pipeline: after its last stage); null at the list's end. */
export function thenOf(statement: Statement): ListOp | null {
  if (statement.kind === 'simple') return statement.segment.then;
  if (statement.kind === 'compound') return statement.placement.then;
  const last = statement.stages.at(-1);
  return last === undefined ? null : thenOf(last);
}

/**
 * What follows this statement: the list operator after it (`&&`, `||`, `;`, `&`, newline) and the
 * statement of the same list that comes next, or null for both at the end of its list. A pipeline
 * stage is followed by its pipeline's follower: find the pipeline with `statement.parent`.
 */
export function followingStatement(statement: Statement): { then: ListOp | null; next: Statement | null } {
  const holder = statement.parent.kind === 'pipeline' ? statement.parent : statement;
  const list = listOf(statement);
  const at = list.statements.indexOf(holder);
  return { then: thenOf(holder), next: list.statements[at + 1] ?? null };
}

/** The statement that holds a list: a compound (its part), a simple command (its substitution), or null for main. */
export function enclosingStatement(list: StatementList): SimpleStatement | CompoundStatement | null {
  let parent = list.parent;
  while (parent !== null && parent.kind === 'list') parent = parent.parent;
  return parent;
}

/**
 * The simple command whose words, assignments or redirections hold a `$( )`, backticks or `<( )`
 * (through any `$(( ))` around it): `make check` for `$(date)` in `make check > $(date).log`. null
 * for a `$(( ))` itself, for one a compound's words hold (a for's word list, a case's word), one a
 * list holds, and for a list that is no substitution.
 */
export function substitutionOwner(list: StatementList): SimpleStatement | null {
  let parent = list.parent;
  while (parent !== null && parent.kind === 'list' && parent.frame.kind === 'arithmetic')
    parent = parent.parent;
  const held = isSubstitution(list.frame.kind) && list.frame.kind !== 'arithmetic';
  return held && parent !== null && parent.kind === 'simple' ? parent : null;
}

/** The `$( )`, backticks and `<( )` a simple command's words hold, through any `$(( ))`: those it is the substitutionOwner of. */
export function ownedSubstitutions(statement: SimpleStatement | undefined): StatementList[] {
  if (statement === undefined) return [];
  return substitutionLists(statement.substitutions).filter((list) => substitutionOwner(list) === statement);
}

const leavesByLine = new WeakMap<CommandLine, Map<Segment, SimpleStatement>>();

/** The simple statement of a line's tree whose leaf is `segment` (one of `line.segments`); undefined for another line's. */
export function leafOf(line: CommandLine, segment: Segment): SimpleStatement | undefined {
  let leaves = leavesByLine.get(line);
  if (leaves === undefined) {
    leaves = new Map();
    for (const { statement } of walkStatements(line.statements))
      if (statement.kind === 'simple') leaves.set(statement.segment, statement);
    leavesByLine.set(line, leaves);
  }
  return leaves.get(segment);
}

const listsByLine = new WeakMap<CommandLine, Map<Context, StatementList>>();

/**
 * The list of a line's statement tree whose frame is `frame` (one of its segments' context frames):
 * its main list, a compound's part, a substitution. undefined for a frame of another line.
 */
export function listOfFrame(line: CommandLine, frame: Context): StatementList | undefined {
  let lists = listsByLine.get(line);
  if (lists === undefined) {
    lists = new Map();
    const [first] = line.statements;
    if (first !== undefined) for (const list of listsUnder(listOf(first))) lists.set(list.frame, list);
    listsByLine.set(line, lists);
  }
  return lists.get(frame);
}

/** A list and every list under it: its statements' parts and substitutions, at every depth. */
function listsUnder(top: StatementList): StatementList[] {
  const found: StatementList[] = [];
  const stack = [top];
  for (let list = stack.pop(); list !== undefined; list = stack.pop()) {
    found.push(list);
    stack.push(...list.substitutions);
    for (const statement of list.statements) {
      const stages = statement.kind === 'pipeline' ? statement.stages : [statement];
      for (const stage of stages)
        stack.push(...stage.substitutions, ...(stage.kind === 'compound' ? stage.parts : []));
    }
  }
  return found;
}

/**
 * The pipeline whose stages carry `pipeline.id === id` (a segment's or a compound frame's placement), or null.
 * @deprecated `pipeline.id` is: a stage's pipeline is its statement's `parent` (`leafOf(line, segment).parent`).
 */
export function pipelineById(line: CommandLine, id: number): PipelineStatement | null {
  const [first] = line.statements;
  if (first === undefined) return null;
  for (const list of listsUnder(listOf(first))) {
    for (const statement of list.statements) {
      if (statement.kind !== 'pipeline') continue;
      const stage = statement.stages[0];
      const placement = stage?.kind === 'simple' ? stage.segment : stage?.placement;
      if (placement?.pipeline?.id === id) return statement;
    }
  }
  return null;
}
