import type { Segment } from '@kit/shell-segments';
import { liftToTop } from '@kit/shell-segments';
import { pipedStage } from '../pipeline.ts';
import { pipelineRewrite, redundantStatusEcho, standsAlone } from '../rewrite/pipeline-rewrite.ts';
import { splice } from '../rewrite/splice.ts';
import { type DenyingRule, type Finding, noRewrite } from '../rule.ts';
import { gatesIn } from '../shell.ts';
import { isOptionOnAt } from '../shell-options.ts';
import type { Statement } from '../statements.ts';

/** A gate whose status a pipe consumes: the stage it leaves in, and that stage's pipeline. */
interface PipedGateFinding extends Finding {
  gate: Segment;
  stage: Statement;
  pipelineId: number;
}

const phrase = 'exit status is lost in a pipe';

/**
 * Rule 2, `piped-gate`: a gate whose status a following `|` / `|&` consumes (any stage but the last;
 * a subshell or group piped as a whole counts by its last command), unless pipefail is on where the
 * pipeline runs.
 */
export const pipedGate: DenyingRule<'piped-gate', PipedGateFinding> = {
  effect: 'deny',
  id: 'piped-gate',
  phrase,
  find: ({ top }) => {
    for (const { shell, segment: gate, role } of gatesIn(top)) {
      if (!role.gate) continue;
      const piped = pipedStage(shell, gate);
      if (piped === null) continue;
      if (isOptionOnAt(shell.segments, piped.stage.start, piped.chain, 'pipefail')) continue;
      return {
        shell,
        gate,
        gateHead: role.gateHead ?? role.head,
        stage: piped.stage,
        pipelineId: piped.pipelineId,
      };
    }
    return null;
  },
  reason: () => ({
    why: `its ${phrase}: a pipeline reports its last stage's status, so a failed check reads as success.`,
    instead: 'Send the output to a log and echo the status instead:',
    fallback: 'Redirect the check to a log, `echo "EXIT=$?"`, then filter the log.',
  }),
  rewrite: ({ shell, pipelineId, stage }, logPath) => {
    const index = stage.placement.pipeline?.index ?? 0;
    const piece = pipelineRewrite(shell, pipelineId, index, logPath());
    if (piece === null) return noRewrite('no pipeline stages');
    if (!standsAlone(shell, piece.start, piece.end))
      return {
        ok: true,
        value: liftToTop(shell.line, splice(shell.source, piece.start, piece.end, `{ ${piece.text}; }`)),
      };
    const echo = redundantStatusEcho(shell, piece.end);
    return {
      ok: true,
      value: liftToTop(
        shell.line,
        splice(shell.source, piece.start, echo ? echo.end : piece.end, piece.text),
      ),
    };
  },
};
