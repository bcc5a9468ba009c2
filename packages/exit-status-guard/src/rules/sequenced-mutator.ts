import type { Context, Segment } from '@kit/shell-segments';
import { findStatusCaptures, frameDepth, liftToTop } from '@kit/shell-segments';
import { pipedStage } from '../pipeline.ts';
import { captureAfter } from '../rewrite/capture.ts';
import { applyEdits, type Edit, operatorAfter } from '../rewrite/splice.ts';
import { type DenyingRule, type Finding, noRewrite, type Rewrite } from '../rule.ts';
import { allShells, frameOf, gatesIn, roleOf, type Shell } from '../shell.ts';
import { isOptionOn } from '../shell-options.ts';
import { type Statement, statementKind, statementsIn, statusExit } from '../statements.ts';

/** A gate whose `;` lets a later state change run whatever the check said. */
interface SequencedMutatorFinding extends Finding {
  gate: Segment;
  statement: Statement; // the statement the gate's status leaves by `;` or a newline
  mutator: Segment;
  mutatorHead: string;
  mutatorIsRestore: boolean;
  errexit: boolean; // set -e is on at the gate
}

const phrase = 'exit status is lost before a state change';

const testCommands = new Set(['[', '[[', 'test']);

/** The segment right before this one in its own list, when the two are joined by `&&`. */
function andPredecessor(shell: Shell, segment: Segment): Segment | null {
  const frame = frameOf(segment);
  let best: Segment | null = null;
  for (const other of shell.segments) {
    if (other === segment || frameOf(other).id !== frame.id || other.end > segment.start) continue;
    if (best === null || other.start > best.start) best = other;
  }
  return best !== null && best.then === '&&' && best.pipeline === null ? best : null;
}

/** The tested form: after the capture, an unbroken `&&` chain from a test of `$rc` into the mutator. */
function isTested(shell: Shell, mutator: Segment, name: string, after: number): boolean {
  for (
    let link = andPredecessor(shell, mutator);
    link !== null && link.start > after;
    link = andPredecessor(shell, link)
  ) {
    if (testCommands.has(link.argv[0]?.value ?? '') && link.params.includes(name)) return true;
  }
  return false;
}

const captureCache = new WeakMap<Shell, ReturnType<typeof findStatusCaptures>>();

/** The `rc=$?` captures that are top-level statements of a shell. */
function capturesOf(shell: Shell): ReturnType<typeof findStatusCaptures> {
  let captures = captureCache.get(shell);
  if (captures === undefined) {
    captures = findStatusCaptures(shell.line).filter((capture) => frameDepth(capture.capture) === 0);
    captureCache.set(shell, captures);
  }
  return captures;
}

/**
 * Whether a gate → mutator sequence is one of the two safe forms: capture-and-restore (the mutator is
 * a restore, `rc=$?` is its own top-level statement between them, a later statement reads `$rc`), or
 * tested (after the capture, `[ … "$rc" … ] && … && mutator`).
 */
function isSafeSequence(shell: Shell, gate: Segment, mutator: Segment, restores: Restores): boolean {
  for (const capture of capturesOf(shell)) {
    const at = capture.capture;
    if (frameDepth(at) !== 0 || at.end > mutator.start) continue;
    const readAfter = capture.readers.some((reader) => reader.start >= mutator.end);
    if (at.start < gate.end) {
      // A teardown of several restores: the first restore's `;` before the next loses nothing,
      // since the status re-raised at the end is the one captured before them all.
      if (restores === 'both' && readAfter) return true;
      continue;
    }
    if (isTested(shell, mutator, capture.name, at.end)) return true;
    if (restores !== 'neither' && readAfter) return true;
  }
  return false;
}

/** Which of a gate → mutator pair are restores: only the mutator, both (a teardown), or neither. */
type Restores = 'neither' | 'mutator' | 'both';

function findSequenced(top: Shell): SequencedMutatorFinding | null {
  const mutatorsBy = new Map<Shell, Segment[]>(
    allShells(top).map((shell) => [shell, shell.segments.filter((_, j) => shell.roles[j]?.containsMutator)]),
  );
  for (const { shell, segment: gate, role } of gatesIn(top)) {
    const mutators = mutatorsBy.get(shell) ?? [];
    if (!role.gate || mutators.length === 0) continue;
    // A piped gate only reaches the list operator under pipefail (otherwise rule 2 has spoken).
    if (pipedStage(shell, gate) !== null && !isOptionOn(shell.segments, gate, 'pipefail')) continue;
    const { then, statement } = statusExit(shell, gate);
    if (then !== ';' && then !== 'newline') continue;
    for (const mutator of mutators) {
      const mutatorRole = roleOf(shell, mutator);
      if (mutator.start < statement.end) continue;
      const restores: Restores = !mutatorRole.restore ? 'neither' : role.restore ? 'both' : 'mutator';
      if (isSafeSequence(shell, gate, mutator, restores)) continue;
      return {
        shell,
        gate,
        gateHead: role.gateHead ?? role.head,
        statement,
        mutator,
        mutatorHead: mutatorRole.head,
        mutatorIsRestore: mutatorRole.restore,
        errexit: isOptionOn(shell.segments, gate, 'errexit'),
      };
    }
  }
  return null;
}

const simpleStatementKinds = new Set(['segment', 'subshell', 'group']);

/** Capture the status after the check, run the restore, re-raise the status at the end. */
function restoreRewrite({ shell, statement, mutator }: SequencedMutatorFinding): Rewrite {
  const capture = findStatusCaptures(shell.line).find(
    (each) =>
      frameDepth(each.capture) === 0 &&
      each.capture.start >= statement.end &&
      each.capture.end <= mutator.start,
  );
  const base = capture ? shell.source : captureAfter(shell.source, statement);
  return {
    ok: true,
    value: liftToTop(shell.line, `${base.trimEnd()}\nexit $${capture ? capture.name : 'rc'}`),
  };
}

/** Every `;` or newline from the check to the mutator's statement becomes `&&`. */
function andRewrite({ shell, statement, mutator }: SequencedMutatorFinding): Rewrite {
  const parent = parentFrameOf(shell, statement);
  if (!parent) return noRewrite('the check has no enclosing list');
  const statements = statementsIn(shell, parent);
  const from = statements.findIndex((each) => each.start === statement.start && each.end === statement.end);
  const to = statements.findIndex((each) => each.start <= mutator.start && mutator.end <= each.end);
  if (from < 0 || to <= from) return noRewrite('the state change is not a later statement of the same list');
  const edits: Edit[] = [];
  for (let k = from; k < to; k++) {
    const each = statements[k] as Statement;
    if (each.then !== ';' && each.then !== 'newline') continue;
    if (each.placement.pipeline !== null && each.placement.pipeline.op !== null) continue;
    if (!simpleStatementKinds.has(statementKind(each))) return noRewrite('a compound statement in between');
    const limit = (statements[k + 1] as Statement).start;
    if (each.then === ';') {
      const at = operatorAfter(shell.source, each.end, ';', limit);
      if (at === null) return noRewrite('the `;` is not written after the statement');
      edits.push({ at, remove: 1, text: ' &&' });
    } else {
      // A newline: `&&` goes at the end of the line, also when a heredoc body follows it.
      edits.push({ at: each.end, remove: 0, text: ' &&' });
    }
  }
  return {
    ok: true,
    value: liftToTop(shell.line, applyEdits(shell.source, edits).replace(/ {2,}&&/g, ' &&')),
  };
}

function parentFrameOf(shell: Shell, statement: Statement): Context | null {
  if (statement.kind === 'segment') return frameOf(statement.segment);
  const chain = contextsAround(shell, statement.frame);
  const at = chain.findIndex((frame) => frame.id === statement.frame.id);
  return at > 0 ? (chain[at - 1] as Context) : null;
}

function contextsAround(shell: Shell, frame: Context): Context[] {
  for (const segment of shell.segments)
    if (segment.context.some((each) => each.id === frame.id)) return segment.context;
  return [];
}

/**
 * Rule 4, `sequenced-mutator`: a gate followed by `;` or a newline (closing every group it sits in),
 * then later a mutator at any depth. Not for `&&`; gate then gate is fine.
 */
export const sequencedMutator: DenyingRule<'sequenced-mutator', SequencedMutatorFinding> = {
  effect: 'deny',
  id: 'sequenced-mutator',
  phrase,
  find: ({ top }) => findSequenced(top),
  reason: (found) => ({
    why:
      `its ${phrase}: \`;\` runs \`${found.mutatorHead.slice(0, 70).replaceAll('`', "'")}\` whether or not the check passed.` +
      (found.errexit
        ? ' `set -e` does not stop it: the host runs the command inside an eval in an && list, where errexit is ignored.'
        : ''),
    instead: found.mutatorIsRestore
      ? 'Capture the status, run the restore, and re-raise the status after it:'
      : 'Join them with && so the change runs only when the check passed:',
    fallback: 'Put `&&` between the check and the state change.',
  }),
  rewrite: (found) => (found.mutatorIsRestore ? restoreRewrite(found) : andRewrite(found)),
};
