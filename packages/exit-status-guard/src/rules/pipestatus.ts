import type { Segment } from '@kit/shell-segments';
import { pipestatusRewrite } from '../rewrite/pipestatus-rewrite.ts';
import type { DenyingRule, Finding } from '../rule.ts';
import { allShells } from '../shell.ts';

/** A read of $PIPESTATUS, and the gate before it whose status the read was after (if any). */
interface PipestatusFinding extends Finding {
  reader: Segment;
  gate: Segment | null;
}

const phrase = 'reads $PIPESTATUS';

/**
 * Rule 1, `pipestatus`: a read of $PIPESTATUS anywhere (also in an unquoted heredoc body), whether
 * or not a gate runs: it is a bash-only array, and under a shell without it the test reads success.
 */
export const pipestatus: DenyingRule<'pipestatus', PipestatusFinding> = {
  effect: 'deny',
  id: 'pipestatus',
  phrase,
  find: ({ top }) => {
    for (const shell of allShells(top)) {
      const reader = shell.segments.find((segment) => segment.params.includes('PIPESTATUS'));
      if (!reader) continue;
      // The gate named is the one whose status the read was after: the last gate before it.
      let gate = null;
      for (const [i, segment] of shell.segments.entries()) {
        if (segment.start < reader.start && shell.roles[i]?.gate) gate = segment;
      }
      const gateHead = gate
        ? (shell.roles[shell.segments.indexOf(gate)]?.gateHead ?? '')
        : (shell.roles[shell.segments.indexOf(reader)]?.head ?? reader.text);
      return { shell, reader, gate, gateHead: gateHead || reader.text };
    }
    return null;
  },
  reason: () => ({
    why: `the command ${phrase}, a bash-only array: under a shell without it the test reads success.`,
    instead: 'Capture each status you read with `rc=$?` right after its stage, the output through a log:',
    fallback:
      'Test `$?` right after the command whose status you need, in its own statement: `cmd > log 2>&1; echo "EXIT=$?"`.',
    durableFix:
      'No exempt pattern silences this rule: the read itself is the problem, whatever ran before it.',
  }),
  rewrite: ({ shell }, logPath) => pipestatusRewrite(shell, logPath),
};
