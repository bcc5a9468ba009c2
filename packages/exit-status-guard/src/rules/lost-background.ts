import type { Segment } from '@kit/shell-segments';
import { liftToTop } from '@kit/shell-segments';
import { groupPipelines } from '../pipeline.ts';
import { captureAfter } from '../rewrite/capture.ts';
import { operatorAfter } from '../rewrite/splice.ts';
import { type DenyingRule, type Finding, noRewrite } from '../rule.ts';
import { gatesIn, mainOf, roleOf, type Shell } from '../shell.ts';
import { isOptionOn } from '../shell-options.ts';
import {
  compoundStatement,
  type Statement,
  segmentStatement,
  statementsIn,
  topStatement,
} from '../statements.ts';

/** How the status is lost: a `&` sends the statement away, or the background task ends on another statement. */
type LostBackgroundFinding = Finding & { gate: Segment } & (
    | { how: 'ampersand'; statement: Statement } // the statement the `&` sends to the background
    | { how: 'background-task'; last: Statement; gateStatement: Statement }
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
    const owner = frame.owner === undefined ? undefined : shell.segments[frame.owner];
    if (owner?.background) return segmentStatement(owner);
  }
  return null;
}

const statusBuiltins = new Set(['exit', 'return']);

/** Whether a statement's own status is a check's: a gate, `exit …`, a bare assignment, a read of `$?`. */
function carriesStatus(shell: Shell, statement: Statement): boolean {
  if (statement.kind === 'segment') {
    const segment = statement.segment;
    const role = roleOf(shell, segment);
    if (role.gate || segment.params.includes('?')) return true;
    if (segment.argv.length === 0 && segment.assigns.length > 0) return true;
    return statusBuiltins.has(segment.argv[0]?.value ?? '');
  }
  if (statement.frame.kind !== 'subshell' && statement.frame.kind !== 'group') return false;
  return lastListCarries(shell, statementsIn(shell, statement.frame));
}

/** Whether the last and-or list of a list carries a check's status: `&&` keeps it, `||` and `|` give the right side's. */
function lastListCarries(shell: Shell, statements: Statement[]): boolean {
  const groups = groupPipelines(statements);
  const carries = (k: number): boolean => {
    const group = groups[k] as Statement[];
    const last = group[group.length - 1] as Statement;
    const pipefail =
      last.kind === 'segment' && group.length > 1 && isOptionOn(shell.segments, last.segment, 'pipefail');
    if ((pipefail ? group : [last]).some((statement) => carriesStatus(shell, statement))) return true;
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
  const statements = statementsIn(top, main);
  if (lastListCarries(top, statements)) return null;
  const gate = top.segments[gateAt] as Segment;
  const role = top.roles[gateAt];
  return {
    shell: top,
    gate,
    gateHead: role?.gateHead ?? role?.head ?? gate.text,
    how: 'background-task',
    last: statements[statements.length - 1] as Statement,
    gateStatement: topStatement(top, gate),
  };
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
  rewrite: (found) => {
    const { shell } = found;
    if (found.how === 'background-task')
      return {
        ok: true,
        value: liftToTop(
          shell.line,
          `${captureAfter(shell.source, found.gateStatement).trimEnd()}\nexit $rc`,
        ),
      };
    const { statement } = found;
    const after = shell.segments
      .filter((segment) => segment.start >= statement.end)
      .map((segment) => segment.start);
    const limit = after.length > 0 ? Math.min(...after) : shell.source.length;
    const at = operatorAfter(shell.source, statement.end, '&', limit);
    if (at === null) return noRewrite('the `&` is not written after the statement');
    const rest = shell.source.slice(at + 1);
    const body = `${shell.source.slice(0, at).trimEnd()}; rc=$?; echo "EXIT=$rc"`;
    const text = rest.trim() === '' ? `${body}; exit $rc` : `${body};${rest}\nexit $rc`;
    return { ok: true, value: liftToTop(shell.line, text) };
  },
};
