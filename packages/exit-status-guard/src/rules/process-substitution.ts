import type { Context } from '@kit/shell-segments';
import type { Hit } from '../hit.ts';
import { allUnits, type Unit } from '../unit.ts';

/**
 * Rule 5: a gate inside `<( )` or `>( )` whose body does not read `$?`: nothing waits for it, so
 * the outer command succeeds whatever it did, unless a later `wait … $!` collects it.
 */
export function findProcessSubstitution(unit: Unit): Hit | null {
  for (const each of allUnits(unit)) {
    for (const [i, gate] of each.segments.entries()) {
      const role = each.roles[i];
      if (!role?.containsGate) continue;
      const substitution = [...gate.context]
        .reverse()
        .find((frame) => frame.kind === 'process-substitution') as Context | undefined;
      if (!substitution) continue;
      const inBody = each.segments.filter((segment) =>
        segment.context.some((frame) => frame.id === substitution.id),
      );
      if (inBody.some((segment) => segment.params.includes('?'))) continue;
      const collected = each.segments.some(
        (segment) =>
          segment.start >= substitution.end &&
          segment.argv[0]?.value === 'wait' &&
          segment.params.includes('!'),
      );
      if (collected) continue;
      return {
        rule: 'process-substitution',
        unit: each,
        gate,
        gateHead: role.gateHead ?? role.head,
        substitution,
      };
    }
  }
  return null;
}
