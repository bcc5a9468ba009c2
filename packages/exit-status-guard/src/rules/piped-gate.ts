import type { Context, Segment } from '@kit/shell-segments';
import { frameItem, type Item, isLastIn, segmentItem } from '../frames.ts';
import type { Hit } from '../hit.ts';
import { isOptionOnAt } from '../shell-options.ts';
import { allUnits, type Unit } from '../unit.ts';

/**
 * The pipeline stage a gate's status is consumed in: the gate itself when a `|` or `|&` follows it,
 * or a subshell / group it ends that is piped as a whole. null when its status is not piped away.
 */
export function pipedStage(
  unit: Unit,
  gate: Segment,
): { stage: Item; pipelineId: number; chain: Context[] } | null {
  if (gate.pipeline !== null && gate.pipeline.op !== null) {
    return { stage: segmentItem(gate), pipelineId: gate.pipeline.id, chain: gate.context };
  }
  if (!gate.last) return null;
  for (let i = gate.context.length - 1; i > 0; i--) {
    const frame = gate.context[i] as Context;
    if (frame.kind !== 'subshell' && frame.kind !== 'group') return null;
    const placement = frame.placement;
    if (placement?.pipeline && placement.pipeline.op !== null) {
      return {
        stage: frameItem(frame, placement),
        pipelineId: placement.pipeline.id,
        chain: gate.context.slice(0, i),
      };
    }
    if (!isLastIn(unit, frame, gate.context[i - 1] as Context)) return null;
  }
  return null;
}

/**
 * Rule 2: a gate whose status a following `|` / `|&` consumes (any stage but the last; a subshell or
 * group piped as a whole counts by its last command), unless pipefail is on where the pipeline runs.
 */
export function findPipedGate(unit: Unit): Hit | null {
  for (const each of allUnits(unit)) {
    for (const [i, gate] of each.segments.entries()) {
      const role = each.roles[i];
      if (!role?.gate) continue;
      const piped = pipedStage(each, gate);
      if (piped === null) continue;
      if (isOptionOnAt(each.segments, piped.stage.start, piped.chain, 'pipefail')) continue;
      return {
        rule: 'piped-gate',
        unit: each,
        gate,
        gateHead: role.gateHead ?? role.head,
        stage: piped.stage,
        pipelineId: piped.pipelineId,
      };
    }
  }
  return null;
}
