import type { Segment } from '@kit/shell-segments';
import { isCommandSubstitution, liftToTop } from '@kit/shell-segments';
import { listCarries } from '../carried-status.ts';
import { captureEdits, reRaiseEdit } from '../rewrite/capture.ts';
import { freeName } from '../rewrite/names.ts';
import { applyEdits, operatorAfter } from '../rewrite/splice.ts';
import { type DenyingRule, type Finding, noRewrite, type Rewrite } from '../rule.ts';
import { gatesIn, mainOf, type Shell } from '../shell.ts';
import {
  compoundStatement,
  conditionKinds,
  frameAround,
  isCapturedInShell,
  ownerOf,
  type Statement,
  segmentStatement,
  statementGroups,
  statementsIn,
  statusExit,
} from '../statements.ts';

/** How the status is lost: a `&` sends the statement away, or the background task ends on another statement. */
type LostBackgroundFinding = Finding & { gate: Segment } & (
    | { how: 'ampersand'; statement: Statement } // the statement the `&` sends to the background
    | { how: 'background-task' }
  );

const phrase = 'exit status is lost in the background';

/** The statement a `&` sends to the background with this segment in it, if any. */
function backgroundedStatement(shell: Shell, segment: Segment): Statement | null {
  if (segment.background) return segmentStatement(segment);
  for (const frame of segment.context) {
    if (frame.placement?.background) {
      return compoundStatement(frame, frame.placement);
    }
    // A substitution's owner is a segment of the same line: `$(make check) &` backgrounds it.
    const owner = ownerOf(shell, frame);
    if (owner?.background) return segmentStatement(owner);
  }
  return null;
}

function findAmpersand(top: Shell): LostBackgroundFinding | null {
  for (const { shell, segment, role } of gatesIn(top)) {
    const statement = backgroundedStatement(shell, segment);
    if (statement)
      return { shell, gate: segment, gateHead: role.gateHead ?? role.head, how: 'ampersand', statement };
  }
  return null;
}

function findBackgroundTask(top: Shell): LostBackgroundFinding | null {
  const gateAt = top.roles.findIndex((role) => role.containsGate);
  if (gateAt < 0) return null;
  const main = mainOf(top);
  if (!main) return null;
  if (listCarries(top, statementGroups(top, main))) return null;
  const gate = top.segments[gateAt] as Segment;
  const role = top.roles[gateAt];
  return {
    shell: top,
    gate,
    gateHead: role?.gateHead ?? role?.head ?? gate.text,
    how: 'background-task',
  };
}

/**
 * The `&` becomes `; rc=$?; echo "EXIT=$rc"`, and the line ends in `exit $rc`: the check runs in
 * the foreground and its status is the call's (the reason says how to keep it in the background).
 */
function ampersandRewrite(found: Extract<LostBackgroundFinding, { how: 'ampersand' }>): Rewrite {
  const { shell, statement } = found;
  const after = shell.segments
    .filter((segment) => segment.start >= statement.end)
    .map((segment) => segment.start);
  const limit = after.length > 0 ? Math.min(...after) : shell.source.length;
  const at = operatorAfter(shell.source, statement.end, '&', limit);
  if (at === null) return noRewrite('the `&` is not written after the statement');
  const name = freeName(shell);
  const rest = shell.source.slice(at + 1);
  const body = `${shell.source.slice(0, at).trimEnd()}; ${name}=$?; echo "EXIT=$${name}"`;
  // The `&` stood for a separator: `;`, or nothing before a line break.
  const separator = /^[ \t]*\n/.test(rest) ? '' : ';';
  const text =
    rest.trim() === '' ? `${body}; exit $${name}` : `${body}${separator}${rest.trimEnd()}\nexit $${name}`;
  return { ok: true, value: liftToTop(shell.line, text) };
}

/**
 * `rc=$?` right after the statement whose status is the check's, an `echo "EXIT=$?"` right after
 * it now reading `$rc`, and `exit $rc` at the end: the task reports the check's status.
 */
function backgroundTaskRewrite(found: Extract<LostBackgroundFinding, { how: 'background-task' }>): Rewrite {
  const { shell, gate } = found;
  const early = conditionRewrite(shell, gate) ?? assignmentRewrite(shell, gate);
  if (early !== null) return early;
  const { statement } = statusExit(shell, gate);
  if (!isCapturedInShell(gate, statement))
    return noRewrite('the check runs in a subshell or loop of its own');
  const name = freeName(shell);
  const edits = captureEdits(shell.source, statement, name);
  const frame = frameAround(shell, statement);
  const next = frame && statementsIn(shell, frame).find((each) => each.start >= statement.end);
  if (next?.kind === 'segment' && isStatusEcho(next.segment))
    edits.push({ at: next.start, remove: next.end - next.start, text: `echo "EXIT=$${name}"` });
  edits.push(reRaiseEdit(shell, name));
  return { ok: true, value: liftToTop(shell.line, applyEdits(shell.source, edits)) };
}

/**
 * A check that ends an if / while / until condition on its own (no `!`, `&&`, `||` or pipe around
 * it): `make check || { rc=$?; (exit $rc); }` keeps the branch it picks and the status the branch
 * reads, and `exit $rc` at the end reports a failure (`exit` alone, the compound's, when it passed).
 */
function conditionRewrite(shell: Shell, gate: Segment): Rewrite | null {
  const frame = gate.context[gate.context.length - 1];
  if (frame === undefined || !conditionKinds.has(frame.kind) || !gate.last || frame.placement === null)
    return null;
  const before = shell.source.slice(frame.start, gate.start);
  if (gate.negated || /(?:&&|\|\||\|&?|!)\s*$/.test(before)) return null;
  if (!isCapturedInShell(gate, compoundStatement(frame, frame.placement)))
    return noRewrite('the check runs in a subshell or loop of its own');
  return capturedAt(shell, gate.end, (name) => ` || { ${name}=$?; (exit $${name}); }`);
}

/**
 * A check that ends a command substitution assigned before a later one (`x=$(make check)
 * y=$(date)`): the statement is cut after its assignment, `; rc=$?` there, `exit $rc` at the end.
 */
function assignmentRewrite(shell: Shell, gate: Segment): Rewrite | null {
  const frame = gate.context[gate.context.length - 1];
  if (frame === undefined || !isCommandSubstitution(frame.kind) || !gate.last) return null;
  const owner = ownerOf(shell, frame);
  const assign = owner?.assigns.find((each) => each.start <= frame.start && frame.end <= each.end);
  if (owner === undefined || assign === undefined || owner.argv.length > 0) return null;
  if (!isCapturedInShell(owner, segmentStatement(owner)))
    return noRewrite('the check runs in a subshell or loop of its own');
  return capturedAt(shell, assign.end, (name) => `; ${name}=$?`);
}

/** The line with a capture of the status into a free name inserted at `at`, and `exit $name` at its end. */
function capturedAt(shell: Shell, at: number, capture: (name: string) => string): Rewrite {
  const name = freeName(shell);
  const edits = [{ at, remove: 0, text: capture(name) }, reRaiseEdit(shell, name)];
  return { ok: true, value: liftToTop(shell.line, applyEdits(shell.source, edits)) };
}

/** An `echo` / `printf` whose only expansion is `$?`. */
function isStatusEcho(segment: Segment): boolean {
  const isEcho = ['echo', 'printf'].includes(segment.argv[0]?.value ?? '');
  return isEcho && segment.params.length > 0 && segment.params.every((param) => param === '?');
}

/**
 * Rule 3, `lost-background`: a `&` after a command that contains a gate (foreground call or not);
 * and a call run with run_in_background whose last statement does not carry the status.
 */
export const lostBackground: DenyingRule<'lost-background', LostBackgroundFinding> = {
  effect: 'deny',
  id: 'lost-background',
  phrase,
  find: ({ top, mode }) =>
    findAmpersand(top) ?? (mode === 'background-task' ? findBackgroundTask(top) : null),
  reason: (found) =>
    found.how === 'ampersand'
      ? {
          why: `its ${phrase}: \`&\` returns at once with status 0 and nothing collects the check's status.`,
          instead:
            'Capture the status and re-raise it (to keep it in the background, make the call with run_in_background: true):',
          fallback: 'Run it in the foreground, or end the call with the check (or `exit $rc` after `rc=$?`).',
        }
      : {
          why: `its ${phrase}: run_in_background reports the status of the last statement, which is not the check's.`,
          instead: 'Capture the status and re-raise it at the end:',
          fallback: 'Run it in the foreground, or end the call with the check (or `exit $rc` after `rc=$?`).',
        },
  rewrite: (found) =>
    found.how === 'background-task' ? backgroundTaskRewrite(found) : ampersandRewrite(found),
};
