import type { Segment } from '@kit/shell-segments';
import { pipelineRewrite } from '../rewrite/pipeline-rewrite.ts';
import { type DenyingRule, type Finding, noRewrite } from '../rule.ts';
import { allShells } from '../shell.ts';
import { liftToTop } from '@kit/shell-segments';

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
    instead: 'Send the output to a log and echo the status instead:',
    fallback:
      'Test `$?` right after the command whose status you need, in its own statement: `cmd > log 2>&1; echo "EXIT=$?"`.',
    durableFix:
      'No exempt pattern silences this rule: the read itself is the problem, whatever ran before it.',
  }),
  rewrite: ({ shell, gate }, logPath) => {
    if (gate === null) return noRewrite('no gate before the read');
    const log = logPath();
    if (gate.pipeline !== null && gate.pipeline.op !== null) {
      const piece = pipelineRewrite(shell, gate.pipeline.id, gate.pipeline.index, log);
      return piece ? { ok: true, value: liftToTop(shell.line, piece.text) } : noRewrite('no pipeline stages');
    }
    return {
      ok: true,
      value: liftToTop(
        shell.line,
        `${log.mkdir}${shell.source.slice(gate.start, gate.end)} > ${log.path} 2>&1; echo "EXIT=$?"`,
      ),
    };
  },
};
