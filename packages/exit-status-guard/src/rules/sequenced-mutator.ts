import type { Segment } from '@kit/shell-segments';
import { findStatusCaptures, frameDepth, leafOf, liftToTop, listOf } from '@kit/shell-segments';
import { pipedStage } from '../pipeline.ts';
import { captureEdits, reRaiseEdit } from '../rewrite/capture.ts';
import { freeName } from '../rewrite/names.ts';
import { applyEdits, type Edit, operatorAfter, splice } from '../rewrite/splice.ts';
import { type DenyingRule, type Finding, noRewrite, type Rewrite } from '../rule.ts';
import { allShells, frameOf, gatesIn, mainOf, roleOf, type Shell } from '../shell.ts';
import { isOptionOn } from '../shell-options.ts';
import {
  conditionKinds,
  frameAround,
  isCapturedInShell,
  type Statement,
  statementsIn,
  statusExit,
} from '../statements.ts';

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

/**
 * The simple command right before this one in its own list (a pipeline's stages counted, a
 * compound's insides not), when the two are joined by `&&`.
 */
function andPredecessor(shell: Shell, segment: Segment): Segment | null {
  const leaf = leafOf(shell.line, segment);
  const simple = leaf
    ? listOf(leaf).statements.flatMap((each) => (each.kind === 'pipeline' ? each.stages : [each]))
    : [];
  const best = simple
    .filter((each) => each.kind === 'simple' && each !== leaf && each.end <= segment.start)
    .at(-1);
  return best?.kind === 'simple' && best.segment.then === '&&' && best.segment.pipeline === null
    ? best.segment
    : null;
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

const loopKinds = new Set(['for-body', 'while-body', 'until-body', 'while-condition', 'until-condition']);

/** Whether the check's status leaves through a loop, which reports only its last round's status. */
function throughLoop(found: SequencedMutatorFinding): boolean {
  const { gate, statement } = found;
  const outer = statement.kind === 'frame' ? gate.context.indexOf(statement.frame) : -1;
  return gate.context.some((frame, i) => i >= outer && outer >= 0 && loopKinds.has(frame.kind));
}

/** Whether a name is assigned anywhere in a shell after an offset (then `$NAME` no longer holds the capture). */
function reassignedAfter(shell: Shell, name: string, after: number): boolean {
  return shell.segments.some(
    (segment) =>
      segment.start >= after &&
      (segment.assigns.some((assign) => assign.name === name) ||
        (['export', 'declare', 'typeset', 'local', 'readonly', 'read'].includes(
          segment.argv[0]?.value ?? '',
        ) &&
          segment.argv.slice(1).some((word) => word.text === name || word.text.startsWith(`${name}=`)))),
  );
}

/** The top-level `NAME=$?` right after the check's statement, still holding it at `until`; null when there is none. */
function captureOf(found: SequencedMutatorFinding, until: number): string | null {
  const { shell, statement } = found;
  const main = mainOf(shell);
  if (!main) return null;
  const next = statementsIn(shell, main).find((each) => each.start >= statement.end);
  if (next?.kind !== 'segment') return null;
  const capture = capturesOf(shell).find((each) => each.capture === next.segment);
  if (!capture) return null;
  const reassigned = shell.segments.some(
    (segment) =>
      segment.start >= next.end &&
      segment.start < until &&
      segment.assigns.some((assign) => assign.name === capture.name),
  );
  return reassigned ? null : capture.name;
}

/** Capture the status after the check, run the restores, re-raise the status at the end. */
function restoreRewrite(found: SequencedMutatorFinding): Rewrite {
  const { shell, statement, mutator } = found;
  const reusable = findStatusCaptures(shell.line).find(
    (each) =>
      frameDepth(each.capture) === 0 &&
      each.capture.start >= statement.end &&
      each.capture.end <= mutator.start &&
      !reassignedAfter(shell, each.name, each.capture.end),
  );
  if (reusable)
    return {
      ok: true,
      value: liftToTop(shell.line, applyEdits(shell.source, [reRaiseEdit(shell, reusable.name)])),
    };
  if (!isCapturedInShell(found.gate, statement)) return noRewrite('the check runs in a subshell of its own');
  const name = freeName(shell);
  const edits = [...captureEdits(shell.source, statement, name), reRaiseEdit(shell, name)];
  return { ok: true, value: liftToTop(shell.line, applyEdits(shell.source, edits)) };
}

/** After a capture of the check's status: `[ "$rc" -eq 0 ] && ` in front of the state change's and-or list. */
function testedRewrite(found: SequencedMutatorFinding, name: string): Rewrite {
  const { shell, mutator } = found;
  const main = mainOf(shell);
  if (!main || frameOf(mutator) !== main) return noRewrite('the state change is not on the main list');
  const statements = statementsIn(shell, main);
  let at = statements.findIndex((each) => each.start <= mutator.start && mutator.end <= each.end);
  while (at > 0 && ['&&', '||'].includes((statements[at - 1] as Statement).then ?? '')) at -= 1;
  const first = statements[at];
  if (!first) return noRewrite('no statement for the state change');
  return {
    ok: true,
    value: liftToTop(shell.line, splice(shell.source, first.start, first.start, `[ "$${name}" -eq 0 ] && `)),
  };
}

/** Every `;` or newline from the check to the state change's statement becomes `&&`. */
function andRewrite(found: SequencedMutatorFinding): Rewrite {
  const { shell, statement, mutator } = found;
  const parent = frameAround(shell, statement);
  if (!parent) return noRewrite('the check has no enclosing list');
  const statements = statementsIn(shell, parent);
  const from = statements.findIndex((each) => each.start === statement.start && each.end === statement.end);
  const to = statements.findIndex((each) => each.start <= mutator.start && mutator.end <= each.end);
  if (from < 0 || to <= from) return noRewrite('the state change is not a later statement of the same list');
  const captures = new Set(capturesOf(shell).map((capture) => capture.capture));
  const edits: Edit[] = [];
  for (let k = from; k < to; k++) {
    const each = statements[k] as Statement;
    // A capture joined by && would hold nothing when the check fails: `exit $rc` would then exit 0.
    if (k > from && each.kind === 'segment' && captures.has(each.segment))
      return noRewrite('a capture in between');
    if (each.then !== ';' && each.then !== 'newline') continue;
    if (each.placement.pipeline !== null && each.placement.pipeline.op !== null) continue;
    const next = (statements[k + 1] as Statement).start;
    const edit = joinEdit(shell.source, each, next);
    if (edit === null) return noRewrite('no `;` or line break written after the statement');
    edits.push(edit);
  }
  return {
    ok: true,
    value: liftToTop(shell.line, applyEdits(shell.source, edits).replace(/ {2,}&&/g, ' &&')),
  };
}

/**
 * The edit that turns the separator after a statement into `&&`. After a simple command, the `;`
 * written right after it, or ` &&` at its end before a line break (also when a heredoc body follows);
 * the same after a subshell or group. After another compound (whose frame ends before its closing
 * `fi` / `done` / `esac`), the last `;` or line
 * break before the next statement; the rewrite is parsed and judged again, so a wrong guess is
 * never handed over.
 */
function joinEdit(source: string, statement: Statement, next: number): Edit | null {
  // A simple command, a subshell or a group ends where its text ends (`)` and `}` included).
  if (
    statement.kind === 'segment' ||
    statement.frame.kind === 'subshell' ||
    statement.frame.kind === 'group'
  ) {
    if (statement.then === 'newline') return { at: statement.end, remove: 0, text: ' &&' };
    const at = operatorAfter(source, statement.end, ';', next);
    return at === null ? null : { at, remove: 1, text: ' &&' };
  }
  const gap = source.slice(statement.end, next);
  if (statement.then === ';') {
    const at = gap.lastIndexOf(';');
    return at < 0 ? null : { at: statement.end + at, remove: 1, text: ' &&' };
  }
  const at = gap.lastIndexOf('\n');
  return at < 0 ? null : { at: statement.end + at, remove: 0, text: ' &&' };
}

/** Whether the check is the condition of the if / while that stands before the change. */
function viaCondition({ gate, statement }: SequencedMutatorFinding): boolean {
  return gate.context.some(
    (frame) => conditionKinds.has(frame.kind) && frame.start >= statement.start && frame.end <= statement.end,
  );
}

function sequencedRewrite(found: SequencedMutatorFinding): Rewrite {
  if (viaCondition(found)) return noRewrite('the check is an if / while condition');
  if (found.mutatorIsRestore) return restoreRewrite(found);
  if (throughLoop(found)) return noRewrite('a loop reports only its last round');
  const name = captureOf(found, found.mutator.start);
  return name === null ? andRewrite(found) : testedRewrite(found, name);
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
    fallback: viaCondition(found)
      ? 'The change runs after the if / while whatever its condition said: move it into the branch that runs when the check passed (`if make check; then …; git push; fi`), or exit in the branch that runs when it failed.'
      : throughLoop(found)
        ? 'A loop reports only its last round\'s status: collect failures in the loop (`|| failed=1`) and run the change after it only when none failed (`[ -z "$failed" ] && …`).'
        : 'Put `&&` between the check and the state change.',
  }),
  rewrite: (found) => sequencedRewrite(found),
};
