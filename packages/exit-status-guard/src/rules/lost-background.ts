import type { Context, Segment } from '@kit/shell-segments';
import { frameItem, type Item, itemsOf, segmentItem, statusExit } from '../frames.ts';
import type { Hit } from '../hit.ts';
import { isOptionOn } from '../shell-options.ts';
import { allUnits, roleOf, type Unit } from '../unit.ts';

/** The statement a `&` sends to the background with this segment in it, if any. */
function backgroundedStatement(unit: Unit, segment: Segment): Item | null {
  if (segment.background) return segmentItem(segment);
  for (const frame of segment.context) {
    if (frame.placement?.background) {
      return frameItem(frame, frame.placement);
    }
    // A substitution's owner is a segment of the same line: `$(make check) &` backgrounds it.
    const owner = frame.owner === undefined ? undefined : unit.segments[frame.owner];
    if (owner?.background) return segmentItem(owner);
  }
  return null;
}

const statusBuiltins = new Set(['exit', 'return']);

/** Whether a statement's own status is a check's: a gate, `exit …`, a bare assignment, a read of `$?`. */
function carriesStatus(unit: Unit, item: Item): boolean {
  if (item.kind === 'segment') {
    const segment = item.segment;
    const role = roleOf(unit, segment);
    if (role.gate || segment.params.includes('?')) return true;
    if (segment.argv.length === 0 && segment.assigns.length > 0) return true;
    return statusBuiltins.has(segment.argv[0]?.value ?? '');
  }
  if (item.frame.kind !== 'subshell' && item.frame.kind !== 'group') return false;
  return lastListCarries(unit, itemsOf(unit, item.frame));
}

/** Pipeline stages as one statement: its status is the last stage's (any stage's under pipefail). */
function pipelines(items: Item[]): Item[][] {
  const groups: Item[][] = [];
  let open: { id: number; items: Item[] } | null = null;
  for (const item of items) {
    const id = item.placement.pipeline?.id;
    if (id !== undefined && open !== null && open.id === id) {
      open.items.push(item);
      continue;
    }
    open = id === undefined ? null : { id, items: [item] };
    groups.push(open ? open.items : [item]);
  }
  return groups;
}

/** Whether the last and-or list of a list carries a check's status: `&&` keeps it, `||` and `|` give the right side's. */
function lastListCarries(unit: Unit, items: Item[]): boolean {
  const groups = pipelines(items);
  const carries = (k: number): boolean => {
    const group = groups[k] as Item[];
    const last = group[group.length - 1] as Item;
    const pipefail =
      last.kind === 'segment' && group.length > 1 && isOptionOn(unit.segments, last.segment, 'pipefail');
    if ((pipefail ? group : [last]).some((item) => carriesStatus(unit, item))) return true;
    const previous = groups[k - 1];
    return previous !== undefined && previous[previous.length - 1]?.then === '&&' && carries(k - 1);
  };
  return groups.length > 0 && carries(groups.length - 1);
}

/**
 * Rule 3: a `&` after a command that contains a gate (foreground call or not); and a call run with
 * run_in_background whose last statement does not carry the status.
 */
export function findLostBackground(unit: Unit, runInBackground: boolean): Hit | null {
  for (const each of allUnits(unit)) {
    for (const [i, segment] of each.segments.entries()) {
      const role = each.roles[i];
      if (!role?.containsGate) continue;
      const statement = backgroundedStatement(each, segment);
      if (statement)
        return {
          rule: 'lost-background',
          unit: each,
          gate: segment,
          gateHead: role.gateHead ?? role.head,
          how: 'ampersand',
          statement,
        };
    }
  }
  if (!runInBackground) return null;
  const gateAt = unit.roles.findIndex((role) => role.containsGate);
  if (gateAt < 0) return null;
  const main = unit.segments[0]?.context[0] as Context | undefined;
  if (!main) return null;
  const items = itemsOf(unit, main);
  if (lastListCarries(unit, items)) return null;
  const gate = unit.segments[gateAt] as Segment;
  const role = unit.roles[gateAt];
  return {
    rule: 'lost-background',
    unit,
    gate,
    gateHead: role?.gateHead ?? role?.head ?? gate.text,
    how: 'call',
    last: items[items.length - 1] as Item,
    gateStatement: topStatement(unit, gate),
  };
}

/** The top-level statement a segment sits in. */
export function topStatement(unit: Unit, segment: Segment): Item {
  const main = segment.context[0] as Context;
  const child = segment.context[1];
  if (child === undefined) return segmentItem(segment);
  const found = itemsOf(unit, main).find((item) => item.kind === 'frame' && item.frame.id === child.id);
  if (found) return found;
  // Inside a substitution of a top-level segment: that segment is the statement.
  const owner = itemsOf(unit, main).find((item) => item.start <= segment.start && item.end >= segment.end);
  return owner ?? statusExit(unit, segment).statement;
}
