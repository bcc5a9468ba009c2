import type { Context, Segment } from '@kit/shell-segments';
import { leafOf, listOf, listOfFrame, liftToTop, segmentsUnder } from '@kit/shell-segments';
import { padded, reportAt, standsAlone } from '../rewrite/pipeline-rewrite.ts';
import { splice } from '../rewrite/splice.ts';
import {
  type CallMode,
  type DenyingRule,
  type Finding,
  type LogPathProbe,
  noRewrite,
  type Rewrite,
} from '../rule.ts';
import { gatesIn } from '../shell.ts';
import { ownerOf } from '../statements.ts';

/** A gate inside a process substitution that nothing waits for. */
interface ProcessSubstitutionFinding extends Finding {
  gate: Segment;
  substitution: Context;
  mode: CallMode;
}

const phrase = 'exit status is lost in a process substitution';

/**
 * Alone on the top line, the check runs first as a statement of its own, `check > LOG; echo
 * "EXIT=$?"`, and the substitution becomes the log (for `>( )`, the check reads the log after).
 * Where the statement's status is used, it becomes `( check > LOG; rc=$?; statement && exit $rc )`:
 * the statement's failure, or else the check's status.
 */
function substitutionRewrite(found: ProcessSubstitutionFinding, logPath: LogPathProbe): Rewrite {
  const { shell, substitution, mode } = found;
  const body = shell.source.slice(substitution.start + 2, substitution.end - 1).trim();
  if (body === '') return noRewrite('an empty substitution');
  const owner = ownerOf(shell, substitution);
  const leaf = owner && leafOf(shell.line, owner);
  const ownStatement = leaf !== undefined && listOf(leaf).parent === null;
  const alone =
    mode === 'foreground' &&
    (owner === undefined
      ? shell.line.runner === null && !shell.roles.some((role) => role.containsMutator)
      : ownStatement === true && standsAlone(shell, owner.start, owner.end));
  if (alone) {
    const log = logPath();
    if (substitution.direction === '>') {
      const rest = splice(shell.source, substitution.start, substitution.end, log.path);
      return {
        ok: true,
        value: liftToTop(shell.line, `${log.mkdir}${rest.trimEnd()}\n${body} < ${log.path}; echo "EXIT=$?"`),
      };
    }
    const at = owner?.start ?? 0;
    const rest = splice(shell.source, substitution.start, substitution.end, log.path);
    const text = splice(rest, at, at, `${log.mkdir}${body} > ${log.path}; echo "EXIT=$?"; `);
    return { ok: true, value: liftToTop(shell.line, text) };
  }
  if (owner === undefined || substitution.direction === '>')
    return noRewrite('the substitution is not in a simple command whose status can be kept');
  const log = logPath();
  const statement = splice(shell.source, substitution.start, substitution.end, log.path).slice(
    owner.start,
    owner.end - (substitution.end - substitution.start) + log.path.length,
  );
  const echo = reportAt(owner) === 'echo-to-stderr' ? ' echo "EXIT=$rc" >&2;' : '';
  const kept = `(${log.mkdir}${body} > ${log.path}; rc=$?;${echo} ${statement} && exit $rc)`;
  const text = splice(
    shell.source,
    owner.start,
    owner.end,
    padded(shell.source, owner.start, owner.end, kept),
  );
  return { ok: true, value: liftToTop(shell.line, text) };
}

/**
 * Rule 5, `process-substitution`: a gate inside `<( )` or `>( )` whose body does not read `$?`:
 * nothing waits for it, so the outer command succeeds whatever it did, unless a later `wait … $!`
 * collects it.
 */
export const processSubstitution: DenyingRule<'process-substitution', ProcessSubstitutionFinding> = {
  effect: 'deny',
  id: 'process-substitution',
  phrase,
  find: ({ top, mode }) => {
    for (const { shell, segment: gate, role } of gatesIn(top)) {
      const substitution = [...gate.context]
        .reverse()
        .find((frame) => frame.kind === 'process-substitution') as Context | undefined;
      if (!substitution) continue;
      const list = listOfFrame(shell.line, substitution);
      const inBody = list === undefined ? [] : segmentsUnder(list);
      if (inBody.some((segment) => segment.params.includes('?'))) continue;
      const collected = shell.segments.some(
        (segment) =>
          segment.start >= substitution.end &&
          segment.argv[0]?.value === 'wait' &&
          segment.params.includes('!'),
      );
      if (collected) continue;
      return { shell, gate, gateHead: role.gateHead ?? role.head, substitution, mode };
    }
    return null;
  },
  reason: ({ substitution }) => ({
    why: `its ${phrase}: nothing waits for ${substitution.direction === '>' ? '`>( )`' : '`<( )`'}, so the outer command succeeds whatever the check did.`,
    instead: 'Run the check first with its output in a log, and use the log instead:',
    fallback: 'Run the check first with its output in a file and `echo "EXIT=$?"`, then use the file.',
  }),
  rewrite: (found, logPath) => substitutionRewrite(found, logPath),
};
