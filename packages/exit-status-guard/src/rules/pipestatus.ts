import type { Hit } from '../hit.ts';
import { allUnits, type Unit } from '../unit.ts';

/**
 * Rule 1: a read of $PIPESTATUS anywhere (also in an unquoted heredoc body), whether or not a gate
 * runs: it is a bash-only array, and under a shell without it the test reads success.
 */
export function findPipestatus(unit: Unit): Hit | null {
  for (const each of allUnits(unit)) {
    const reader = each.segments.find((segment) => segment.params.includes('PIPESTATUS'));
    if (!reader) continue;
    // The gate named is the one whose status the read was after: the last gate before it.
    let gate = null;
    for (const [i, segment] of each.segments.entries()) {
      if (segment.start < reader.start && each.roles[i]?.gate) gate = segment;
    }
    const gateHead = gate
      ? (each.roles[each.segments.indexOf(gate)]?.gateHead ?? '')
      : (each.roles[each.segments.indexOf(reader)]?.head ?? reader.text);
    return { rule: 'pipestatus', unit: each, reader, gate, gateHead: gateHead || reader.text };
  }
  return null;
}
