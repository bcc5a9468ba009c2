import type { Context, Segment } from '@kit/shell-segments';
import { liftToTop } from '@kit/shell-segments';
import { splice } from '../rewrite/splice.ts';
import { type DenyingRule, type Finding, noRewrite } from '../rule.ts';
import { gatesIn } from '../shell.ts';

/** A gate inside a process substitution that nothing waits for. */
interface ProcessSubstitutionFinding extends Finding {
  gate: Segment;
  substitution: Context;
}

const phrase = 'exit status is lost in a process substitution';

/**
 * Rule 5, `process-substitution`: a gate inside `<( )` or `>( )` whose body does not read `$?`:
 * nothing waits for it, so the outer command succeeds whatever it did, unless a later `wait … $!`
 * collects it.
 */
export const processSubstitution: DenyingRule<'process-substitution', ProcessSubstitutionFinding> = {
  effect: 'deny',
  id: 'process-substitution',
  phrase,
  find: ({ top }) => {
    for (const { shell, segment: gate, role } of gatesIn(top)) {
      const substitution = [...gate.context]
        .reverse()
        .find((frame) => frame.kind === 'process-substitution') as Context | undefined;
      if (!substitution) continue;
      const inBody = shell.segments.filter((segment) =>
        segment.context.some((frame) => frame.id === substitution.id),
      );
      if (inBody.some((segment) => segment.params.includes('?'))) continue;
      const collected = shell.segments.some(
        (segment) =>
          segment.start >= substitution.end &&
          segment.argv[0]?.value === 'wait' &&
          segment.params.includes('!'),
      );
      if (collected) continue;
      return { shell, gate, gateHead: role.gateHead ?? role.head, substitution };
    }
    return null;
  },
  reason: ({ substitution }) => ({
    why: `its ${phrase}: nothing waits for ${substitution.direction === '>' ? '`>( )`' : '`<( )`'}, so the outer command succeeds whatever the check did.`,
    instead: 'Send the output to a log and echo the status instead:',
    fallback: 'Run the check first with its output in a file and `echo "EXIT=$?"`, then use the file.',
  }),
  rewrite: ({ shell, substitution }, logPath) => {
    const body = shell.source.slice(substitution.start + 2, substitution.end - 1).trim();
    if (body === '') return noRewrite('an empty substitution');
    const log = logPath();
    // The check runs first (or last, for >( )) as a statement of its own; the substitution becomes the log file.
    const rest = splice(shell.source, substitution.start, substitution.end, log.path);
    const text =
      substitution.direction === '>'
        ? `${log.mkdir}${rest.trimEnd()}\n${body} < ${log.path}; echo "EXIT=$?"`
        : `${log.mkdir}${body} > ${log.path}; echo "EXIT=$?"; ${rest}`;
    return { ok: true, value: liftToTop(shell.line, text) };
  },
};
