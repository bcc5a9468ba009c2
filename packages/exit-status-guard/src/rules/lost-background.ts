import type { Segment } from '@kit/shell-segments';
import { findStatusCaptures, isCommandSubstitution, liftToTop } from '@kit/shell-segments';
import { captureEdits, reRaiseEdit } from '../rewrite/capture.ts';
import { freeName } from '../rewrite/names.ts';
import { applyEdits, operatorAfter } from '../rewrite/splice.ts';
import { type DenyingRule, type Finding, noRewrite, type Rewrite } from '../rule.ts';
import { gatesIn, mainOf, roleOf, type Shell } from '../shell.ts';
import { isOptionOn } from '../shell-options.ts';
import {
  compoundStatement,
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

const statusBuiltins = new Set(['exit', 'return']);
const testCommands = new Set(['[', '[[', 'test', '((']);

/** What `$?` holds when a statement starts: whether the status before it is the check's. */
type Relay = () => boolean;

/** Whether an assignment-only statement takes the status of a command substitution in it (`out=$(make check)`). */
function assignsFromSubstitution(shell: Shell, segment: Segment): boolean {
  return shell.segments.some((each) =>
    each.context.some((frame) => isCommandSubstitution(frame.kind) && ownerOf(shell, frame) === segment),
  );
}

/**
 * Whether a statement's own status is a check's: a gate; `exit` / `return` (of `$?`: what the
 * statement before held; an explicit `exit 0` is deliberate and carries); a test of `$?` or of a captured `rc=$?`; an assignment
 * from a command substitution. An `echo` / `printf` of `$?` is not: it reports its own 0.
 */
function carriesStatus(shell: Shell, statement: Statement, relay: Relay): boolean {
  if (statement.kind === 'segment') {
    const segment = statement.segment;
    if (roleOf(shell, segment).gate) return true;
    if (segment.argv.length === 0)
      return segment.assigns.length > 0 && assignsFromSubstitution(shell, segment);
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
  if (statement.frame.kind !== 'subshell' && statement.frame.kind !== 'group') return false;
  return listCarries(shell, statementGroups(shell, statement.frame), relay);
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

/** Whether the last and-or list of a list carries a check's status: `&&` keeps it, `||` and `|` give the right side's. */
function listCarries(shell: Shell, groups: Statement[][], before: Relay = () => false): boolean {
  const carries = (k: number): boolean => {
    const group = groups[k] as Statement[];
    const last = group[group.length - 1] as Statement;
    const pipefail =
      last.kind === 'segment' && group.length > 1 && isOptionOn(shell.segments, last.segment, 'pipefail');
    const relay: Relay = () => (k > 0 ? carries(k - 1) : before());
    if ((pipefail ? group : [last]).some((statement) => carriesStatus(shell, statement, relay))) return true;
    const previous = groups[k - 1];
    return previous !== undefined && previous[previous.length - 1]?.then === '&&' && carries(k - 1);
  };
  return groups.length > 0 && carries(groups.length - 1);
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
