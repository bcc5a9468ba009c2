import type { PipelineStatement, Segment } from '@kit/shell-segments';
import { liftToTop } from '@kit/shell-segments';
import { pipedStage, stagesOf } from '../pipeline.ts';
import {
  isJoinedBefore,
  keepingStatus,
  reportAt,
  logAndEcho,
  padded,
  pipelineParts,
  redundantStatusEcho,
  standsAlone,
} from '../rewrite/pipeline-rewrite.ts';
import { splice } from '../rewrite/splice.ts';
import { type DenyingRule, type Finding, noRewrite } from '../rule.ts';
import { gatesIn, type Shell } from '../shell.ts';
import { isOptionOnAt } from '../shell-options.ts';
import type { Statement } from '../statements.ts';

/** A gate whose status a pipe consumes: the stage it leaves in, and that stage's pipeline. */
interface PipedGateFinding extends Finding {
  gate: Segment;
  stage: Statement;
  pipeline: PipelineStatement;
  alone: boolean; // the pipeline stands alone on the top line: `check > log; echo "EXIT=$?"; filter`
}

const phrase = 'exit status is lost in a pipe';

/** Whether a pipeline stands alone on the top line, its status used by nothing. */
function isAlone(shell: Shell, pipeline: PipelineStatement): boolean {
  const stages = stagesOf(pipeline);
  const first = stages[0];
  const last = stages[stages.length - 1];
  return first !== undefined && last !== undefined && standsAlone(shell, first.start, last.end);
}

/**
 * Rule 2, `piped-gate`: a gate whose status a following `|` / `|&` consumes (any stage but the last;
 * a subshell or group piped as a whole counts by its last command), unless pipefail is on where the
 * pipeline runs.
 */
export const pipedGate: DenyingRule<'piped-gate', PipedGateFinding> = {
  effect: 'deny',
  id: 'piped-gate',
  phrase,
  find: ({ top, mode }) => {
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
        pipeline: piped.pipeline,
        alone: mode === 'foreground' && isAlone(shell, piped.pipeline),
      };
    }
    return null;
  },
  reason: ({ alone }) => ({
    why: `its ${phrase}: a pipeline reports its last stage's status, so a failed check reads as success.`,
    instead: alone
      ? 'Send the output to a log and echo the status instead:'
      : "Send the output to a log and keep the check's status instead:",
    fallback: 'Redirect the check to a log, `echo "EXIT=$?"`, then filter the log.',
  }),
  // Alone on the top line, the pipeline becomes `check > LOG; echo "EXIT=$?"; filter`. Wherever
  // its status is used (`&&`, `||`, `if`, a group, a later state change, a background task, a
  // nested shell), it becomes a subshell whose status is the check's and whose output is the filter's.
  rewrite: (found, logPath) => {
    const { shell, pipeline, stage, alone } = found;
    const log = logPath();
    const parts = pipelineParts(shell, pipeline, stage.placement.pipeline?.index ?? 0, log);
    if (parts === null) return noRewrite('no pipeline stages');
    if (alone) {
      if (isJoinedBefore(shell, parts.start)) {
        const grouped = splice(shell.source, parts.start, parts.end, `{ ${logAndEcho(parts, log)}; }`);
        return { ok: true, value: liftToTop(shell.line, grouped) };
      }
      const echo = redundantStatusEcho(shell, parts.end);
      const text = splice(shell.source, parts.start, echo ? echo.end : parts.end, logAndEcho(parts, log));
      return { ok: true, value: liftToTop(shell.line, text) };
    }
    const text = padded(
      shell.source,
      parts.start,
      parts.end,
      keepingStatus(parts, log, reportAt(stage.kind === 'segment' ? stage.segment : found.gate)),
    );
    return { ok: true, value: liftToTop(shell.line, splice(shell.source, parts.start, parts.end, text)) };
  },
};
