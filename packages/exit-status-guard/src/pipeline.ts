import { type Context, pipelineById, type Segment } from '@kit/shell-segments';
import type { Shell } from './shell.ts';
import {
  compoundStatement,
  isLastIn,
  type Statement,
  segmentStatement,
  statementsOfTree,
} from './statements.ts';

/** Where a gate's status is piped away: the stage it leaves the segment in, and that stage's pipeline. */
export interface PipedStage {
  stage: Statement; // the gate itself, or a subshell / group it ends that is piped as a whole
  pipelineId: number;
  chain: Context[]; // the frames around the stage
}

/**
 * The pipeline stage a gate's status is consumed in: the gate itself when a `|` or `|&` follows it,
 * or a subshell / group it ends that is piped as a whole. null when its status is not piped away.
 */
export function pipedStage(shell: Shell, gate: Segment): PipedStage | null {
  if (gate.pipeline !== null && gate.pipeline.op !== null) {
    return { stage: segmentStatement(gate), pipelineId: gate.pipeline.id, chain: gate.context };
  }
  if (!gate.last) return null;
  for (let i = gate.context.length - 1; i > 0; i--) {
    const frame = gate.context[i] as Context;
    if (frame.kind !== 'subshell' && frame.kind !== 'group') return null;
    const placement = frame.placement;
    if (placement?.pipeline && placement.pipeline.op !== null) {
      return {
        stage: compoundStatement(frame, placement),
        pipelineId: placement.pipeline.id,
        chain: gate.context.slice(0, i),
      };
    }
    if (!isLastIn(shell, frame, gate.context[i - 1] as Context)) return null;
  }
  return null;
}

/** The stages of a pipeline (segments and piped compounds, one per part that holds a segment), in order. */
export function stagesOf(shell: Shell, pipelineId: number): Statement[] {
  const pipeline = pipelineById(shell.line, pipelineId);
  return pipeline === null ? [] : statementsOfTree(pipeline).sort((a, b) => a.start - b.start);
}

/** The statements of a list grouped by pipeline: each group is one pipeline's stages, or one statement. */
export function groupPipelines(statements: Statement[]): Statement[][] {
  const groups: Statement[][] = [];
  let open: { id: number; statements: Statement[] } | null = null;
  for (const statement of statements) {
    const id = statement.placement.pipeline?.id;
    if (id !== undefined && open !== null && open.id === id) {
      open.statements.push(statement);
      continue;
    }
    open = id === undefined ? null : { id, statements: [statement] };
    groups.push(open ? open.statements : [statement]);
  }
  return groups;
}
