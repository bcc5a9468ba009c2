import type { Context, PipelineStatement, Segment } from '@kit/shell-segments';
import type { Shell } from './shell.ts';
import {
  compoundStatement,
  isLastIn,
  type Statement,
  segmentStatement,
  statementsOfTree,
  treeStatementOf,
} from './statements.ts';

/** Where a gate's status is piped away: the stage it leaves the segment in, and that stage's pipeline. */
export interface PipedStage {
  stage: Statement; // the gate itself, or a subshell / group it ends that is piped as a whole
  pipeline: PipelineStatement;
  chain: Context[]; // the frames around the stage
}

/**
 * The pipeline stage a gate's status is consumed in: the gate itself when a `|` or `|&` follows it,
 * or a subshell / group it ends that is piped as a whole. null when its status is not piped away.
 */
export function pipedStage(shell: Shell, gate: Segment): PipedStage | null {
  if (gate.pipeline !== null && gate.pipeline.op !== null) {
    const pipeline = pipelineOf(shell, segmentStatement(gate));
    return pipeline && { stage: segmentStatement(gate), pipeline, chain: gate.context };
  }
  if (!gate.last) return null;
  for (let i = gate.context.length - 1; i > 0; i--) {
    const frame = gate.context[i] as Context;
    if (frame.kind !== 'subshell' && frame.kind !== 'group') return null;
    const placement = frame.placement;
    if (placement?.pipeline && placement.pipeline.op !== null) {
      const stage = compoundStatement(frame, placement);
      const pipeline = pipelineOf(shell, stage);
      return pipeline && { stage, pipeline, chain: gate.context.slice(0, i) };
    }
    if (!isLastIn(shell, frame, gate.context[i - 1] as Context)) return null;
  }
  return null;
}

/** The pipeline a statement is a stage of (a compound part: its compound's), or null. */
export function pipelineOf(shell: Shell, statement: Statement): PipelineStatement | null {
  const tree = treeStatementOf(shell, statement);
  return tree?.parent.kind === 'pipeline' ? tree.parent : null;
}

/** The stages of a pipeline (segments and piped compounds, one per part that holds a segment), in order. */
export function stagesOf(pipeline: PipelineStatement): Statement[] {
  return statementsOfTree(pipeline).sort((a, b) => a.start - b.start);
}
