import { describe, expect, test } from 'vitest';
import { parse } from '../src/parse.ts';
import {
  enclosingStatement,
  followingStatement,
  isCommandSubstitution,
  isSubstitution,
  leafOf,
  listOf,
  listOfFrame,
  pipelineById,
  segmentsUnder,
  substitutionOwner,
  walkStatements,
} from '../src/statement-tree.ts';
import type { CommandLine, Context, ContextKind, Statement, StatementList } from '../src/types.ts';
import { listLines } from '../src/walk.ts';
import { corpus } from './corpus.ts';

function topLine(command: string): CommandLine {
  const outcome = parse(command);
  if (!outcome.ok) throw new Error(`${command}: ${outcome.message}`);
  return outcome.value;
}

/** A statement as a short text: `seg`, `pipe(a | b)`, `if(if-condition[..] if-body[..])`, substitutions in `<..>`. */
function shapeOf(statement: Statement): string {
  if (statement.kind === 'pipeline') return `pipe(${statement.stages.map(shapeOf).join(' | ')})`;
  const substitutions =
    statement.substitutions.length === 0 ? '' : ` <${listsShape(statement.substitutions)}>`;
  if (statement.kind === 'simple') return `${statement.segment.text}${substitutions}`;
  return `${statement.type}(${listsShape(statement.parts)})${substitutions}`;
}

function listsShape(lists: readonly StatementList[]): string {
  return lists
    .map((list) => {
      const inner = list.substitutions.length === 0 ? '' : ` <${listsShape(list.substitutions)}>`;
      return `${list.frame.kind}[${list.statements.map(shapeOf).join('; ')}]${inner}`;
    })
    .join(' ');
}

const shapes = (command: string): string[] => topLine(command).statements.map(shapeOf);

describe('statements: the structure of a line', () => {
  test.each([
    ['make check', ['make check']],
    ['a && b || c; d & e', ['a', 'b', 'c', 'd', 'e']],
    ['make check 2>&1 | tail -5', ['pipe(make check 2>&1 | tail -5)']],
    ['a | b |& c && d', ['pipe(a | b | c)', 'd']],
    ['(cd api && go test) | tee log', ['pipe(subshell(subshell[cd api; go test]) | tee log)']],
    ['{ a; b; } > out', ['group(group[a; b])']],
    [
      'if a; then b; elif c; then d; else e; fi',
      ['if(if-condition[a] if-body[b] if-condition[c] if-body[d] else-body[e])'],
    ],
    ['while a; do b; done', ['while(while-condition[a] while-body[b])']],
    ['until a; do b; done', ['until(until-condition[a] until-body[b])']],
    ['for x in $(ls); do echo $x; done', ['for(for-body[echo $x]) <command-substitution[ls]>']],
    ['for ((i=0; i<3; i++)); do :; done', ['for(for-body[:]) <arithmetic[]>']],
    ['case $x in a) b;; c) ;; esac', ['case(case-body[b] case-body[])']],
    ['f() { cd /; }; f', ['function(function-body[cd /])', 'f']],
    ['f() ( cd / )', ['function(function-body[subshell(subshell[cd /])])']],
    ['coproc cat', ['coproc(subshell[cat])']],
    ['time { a; }', ['group(group[a])']],
    ['! a | b', ['pipe(a | b)']],
  ])('%s', (command, want) => {
    expect(shapes(command)).toEqual(want);
  });
});

describe('statements: substitutions hang on the statement whose words hold them', () => {
  test.each([
    ['echo $(date)', ['echo $(date) <command-substitution[date]>']],
    ['echo `date`', ['echo `date` <backticks[date]>']],
    ['diff <(a) >(b)', ['diff <(a) >(b) <process-substitution[a] process-substitution[b]>']],
    ['x=$(a $(b))', ['x=$(a $(b)) <command-substitution[a $(b) <command-substitution[b]>]>']],
    ['echo $(( $(a) + 1 ))', ['echo $(( $(a) + 1 )) <arithmetic[] <command-substitution[a]>>']],
    ['(( $(a) ))', ['(( $(a) )) <arithmetic[] <command-substitution[a]>>']],
    ['cat <<EOF\n$(a)\nEOF', ['cat <<EOF <command-substitution[a]>']],
    ['{ a; } > $(b)', ['group(group[a]) <command-substitution[b]>']],
    ['case $(a) in x) b;; esac', ['case(case-body[b]) <command-substitution[a]>']],
    [
      'echo $(if a; then b; fi | c)',
      ['echo $(if a; then b; fi | c) <command-substitution[pipe(if(if-condition[a] if-body[b]) | c)]>'],
    ],
  ])('%s', (command, want) => {
    expect(shapes(command)).toEqual(want);
  });
});

describe('statements: parents', () => {
  test('a stage names its pipeline, a pipeline its list, a part its compound, a substitution its statement', () => {
    const line = topLine('(a $(b)) | c');
    const pipeline = line.statements[0] as Statement & { kind: 'pipeline' };
    const [subshell, c] = pipeline.stages;
    expect(subshell?.parent).toBe(pipeline);
    expect(c?.parent).toBe(pipeline);
    expect(pipeline.parent.frame.kind).toBe('main');
    expect(pipeline.parent.parent).toBeNull();
    const part = (subshell as Statement & { kind: 'compound' }).parts[0] as StatementList;
    expect(part.parent).toBe(subshell);
    const a = part.statements[0] as Statement & { kind: 'simple' };
    expect(a.parent).toBe(part);
    const b = a.substitutions[0] as StatementList;
    expect(b.parent).toBe(a);
    expect(enclosingStatement(b)).toBe(a);
    expect(enclosingStatement(part)).toBe(subshell);
    expect(enclosingStatement(pipeline.parent)).toBeNull();
    expect(listOf(c as Statement)).toBe(pipeline.parent);
  });

  test('a substitution inside $(( )) hangs on the arithmetic list, which hangs on the statement', () => {
    const line = topLine('echo $(( $(a) ))');
    const echo = line.statements[0] as Statement & { kind: 'simple' };
    const arithmetic = echo.substitutions[0] as StatementList;
    const inner = arithmetic.substitutions[0] as StatementList;
    expect(arithmetic.parent).toBe(echo);
    expect(inner.parent).toBe(arithmetic);
    expect(enclosingStatement(inner)).toBe(echo);
  });

  test('each list carries the very frame its segments carry last', () => {
    const line = topLine('if a; then (b $(c)); fi');
    for (const { statement, list } of walkStatements(line.statements)) {
      if (statement.kind === 'simple') expect(statement.segment.context.at(-1)).toBe(list.frame);
    }
  });
});

describe('listOfFrame and pipelineById: from a segment to its place in the tree', () => {
  test.each([
    ['a; (b | c $(d)); e', 'd', 'command-substitution', 'c $(d)'],
    ['if a; then b; fi', 'b', 'if-body', 'if'],
    ['a | b', 'b', 'main', 'none'],
    ['f() { g; }', 'g', 'function-body', 'function'],
  ])('%s: the list of %s', (command, text, frameKind, holder) => {
    const line = topLine(command);
    const segment = line.segments.find((each) => each.text === text);
    const list = segment && listOfFrame(line, segment.context.at(-1) as Context);
    expect(list?.frame.kind).toBe(frameKind);
    const enclosing = list && enclosingStatement(list);
    const holderText =
      enclosing == null ? 'none' : enclosing.kind === 'simple' ? enclosing.segment.text : enclosing.type;
    expect(holderText).toBe(holder);
  });

  test.each([
    ['a | b; c | d', 1, ['c', 'd']],
    ['(a | b) | c', 0, ['compound', 'c']],
    ['(a | b) | c', 1, ['a', 'b']],
    ['a; b', 0, null],
  ])('%s: pipeline %i', (command, id, want) => {
    const found = pipelineById(topLine(command), id);
    const stages = found?.kind === 'pipeline' ? found.stages : null;
    expect(
      stages?.map((stage) => (stage.kind === 'simple' ? stage.segment.text : stage.kind)) ?? null,
    ).toEqual(want);
  });

  test('a frame of another line has no list', () => {
    const [a, b] = [topLine('(x)'), topLine('(x)')];
    expect(listOfFrame(a, b.segments[0]?.context.at(-1) as Context)).toBeUndefined();
  });
});

describe('statements: what follows a statement', () => {
  test.each([
    ['a && b', 'a', '&& b'],
    ['a; b', 'a', '; b'],
    ['a | b && c', 'a', '&& c'],
    ['a | b && c', 'b', '&& c'],
    ['{ a; } || b', 'a', '; end'], // the terminator as written inside the group
    ['a & b', 'a', '& b'],
    ['a\nb', 'a', 'newline b'],
    ['a', 'a', 'null end'],
  ])('%s: after %s', (command, text, want) => {
    const line = topLine(command);
    const found = [...walkStatements(line.statements)].find(
      ({ statement }) => statement.kind === 'simple' && statement.segment.text === text,
    );
    const { then, next } = followingStatement((found as { statement: Statement }).statement);
    const nextText = next === null ? 'end' : next.kind === 'simple' ? next.segment.text : next.kind;
    expect(`${then} ${nextText}`).toBe(want);
  });
});

describe('isSubstitution and isCommandSubstitution', () => {
  test.each<[ContextKind, boolean, boolean]>([
    ['command-substitution', true, true],
    ['backticks', true, true],
    ['process-substitution', true, false],
    ['arithmetic', true, false],
    ['subshell', false, false],
    ['main', false, false],
    ['function-body', false, false],
  ])('%s', (kind, substitution, command) => {
    expect([isSubstitution(kind), isCommandSubstitution(kind)]).toEqual([substitution, command]);
  });
});

describe('statements over the corpus: the leaves are the very segments, each once', () => {
  test.each(corpus.map((each) => [each.command]))('%s', (command) => {
    for (const line of listLines(topLine(command))) {
      const leaves = [...walkStatements(line.statements)].flatMap(({ statement }) =>
        statement.kind === 'simple' ? [statement.segment] : [],
      );
      expect(new Set(leaves).size).toBe(leaves.length);
      expect([...leaves].sort((a, b) => a.index - b.index)).toEqual(line.segments);
      for (const leaf of leaves) expect(line.segments[leaf.index]).toBe(leaf);
      const under = line.statements.flatMap((statement) => segmentsUnder(statement));
      expect(under.map((segment) => segment.index)).toEqual(line.segments.map((segment) => segment.index));
    }
  });
});

describe('substitutionOwner and leafOf over the corpus: the links the index fields spelled as numbers', () => {
  const extra = ['echo $(( $(a) ))', 'for x in $(a); do :; done', 'x=$(a; time b > $(c))', '(( $(a) ))'];
  test.each([...corpus.map((each) => each.command), ...extra].map((command) => [command]))(
    '%s',
    (command) => {
      for (const line of listLines(topLine(command))) {
        for (const segment of line.segments) {
          expect(leafOf(line, segment)?.segment).toBe(segment);
          for (const frame of segment.context) {
            const list = listOfFrame(line, frame) as StatementList;
            const owner = frame.owner === undefined ? null : line.segments[frame.owner];
            expect(substitutionOwner(list)?.segment ?? null).toBe(owner);
          }
        }
      }
    },
  );

  test('a substitution in a for word list, or held by a list, has no owner; a leaf of another line has no leaf', () => {
    const line = topLine('for x in $(a); do :; done; x=$(b; time c > $(d))');
    const frames = line.segments.flatMap((segment) => segment.context);
    const owners = new Map(
      frames.map((frame) => [frame.id, substitutionOwner(listOfFrame(line, frame) as StatementList)]),
    );
    const text = (id: number) => owners.get(id)?.segment.text ?? null;
    const byKind = (kind: ContextKind) =>
      frames.filter((frame) => frame.kind === kind).map((frame) => text(frame.id));
    expect([...new Set(byKind('command-substitution'))]).toEqual([null, 'x=$(b; time c > $(d))', 'c > $(d)']);
    expect(leafOf(topLine('a'), line.segments[0] as never)).toBeUndefined();
  });
});
