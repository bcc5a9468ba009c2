import type { Context, ParseOutcome, Segment, Word } from '@kit/shell-segments';
import { parseNested, unwrapLaunchers } from '@kit/shell-segments';
import { type HeadRole, roleOfHead } from './head-role.ts';
import type { Registry } from './registry.ts';

/** What a segment is to the rules: its own head's role, widened by the command string it runs (bash -c, eval). */
export interface SegmentRole extends HeadRole {
  words: string[]; // the head words
  gateHead: string | null; // the gate whose status this segment's status is: its own head, or the last one of its bash -c string
  containsGate: boolean; // a gate runs here, also inside its bash -c / eval string
  containsMutator: boolean; // a state change runs here, also inside its bash -c / eval string
}

/**
 * One shell the rules judge on its own: the whole command, or the string of a bash -c / eval /
 * env -S inside it (a new process: nothing of the outer shell's options reaches it). Nested
 * segments' contexts are cut to start at their 'nested' frame, which stands in for 'main'.
 */
export interface Unit {
  source: string;
  segments: Segment[];
  roles: SegmentRole[]; // by position in segments
  outcome: ParseOutcome & { ok: true };
  children: Unit[];
  depth: number; // 0: the command itself
  parent: Unit | null;
  span: [number, number] | null; // where the command string stands in the parent's source
}

const maxNesting = 4;

function wordText(word: Word): string {
  return word.value ?? word.text;
}

/** Builds the unit tree of a parsed command, reading every nested command string it can. */
export function buildUnit(outcome: ParseOutcome & { ok: true }, registry: Registry, depth = 0): Unit {
  const unit: Unit = {
    source: outcome.source,
    segments: outcome.segments,
    roles: [],
    outcome,
    children: [],
    depth,
    parent: null,
    span: null,
  };
  unit.roles = outcome.segments.map((segment) => {
    const words = unwrapLaunchers(segment.argv).head.map(wordText);
    const role: SegmentRole = {
      ...roleOfHead(words, registry),
      words,
      gateHead: null,
      containsGate: false,
      containsMutator: false,
    };
    role.gateHead = role.gate ? role.head : null;
    role.containsGate = role.gate;
    role.containsMutator = role.mutator;
    if (depth < maxNesting) {
      const nested = safeParseNested(segment);
      if (nested) {
        const child = buildUnit(nested.outcome, registry, depth + 1);
        child.parent = unit;
        child.span = nested.span;
        unit.children.push(child);
        role.containsGate ||= child.roles.some((r) => r.containsGate);
        role.containsMutator ||= child.roles.some((r) => r.containsMutator);
        const carried = lastGateOf(child);
        if (carried !== null && !role.gate) {
          role.gate = true;
          role.gateHead = carried;
        }
      }
    }
    return role;
  });
  return unit;
}

function safeParseNested(
  segment: Segment,
): { outcome: ParseOutcome & { ok: true }; span: [number, number] } | null {
  let nested: ReturnType<typeof parseNested>;
  try {
    nested = parseNested(segment);
  } catch {
    return null;
  }
  if (nested === null || !nested.ok) return null;
  let span: [number, number] = [segment.start, segment.end];
  const segments = nested.segments.map((inner) => {
    const at = inner.context.findIndex((frame) => frame.kind === 'nested');
    const frame = inner.context[at];
    if (frame) span = [frame.start, frame.end];
    const context = at < 0 ? inner.context : inner.context.slice(at);
    return { ...inner, context, depth: context.length - 1 };
  });
  return { outcome: { ok: true, segments, source: nested.source }, span };
}

/** The head of the gate a unit's status comes from: its last top-level statement, when that is a gate. */
function lastGateOf(unit: Unit): string | null {
  let last: Segment | null = null;
  for (const segment of unit.segments) {
    if (segment.depth === 0 && segment.last) last = segment;
  }
  if (last === null) return null;
  const role = unit.roles[unit.segments.indexOf(last)];
  return role?.gate ? role.gateHead : null;
}

const roleMaps = new WeakMap<Unit, Map<Segment, SegmentRole>>();

/** The role of a segment of this unit. */
export function roleOf(unit: Unit, segment: Segment): SegmentRole {
  let roles = roleMaps.get(unit);
  if (roles === undefined) {
    roles = new Map(unit.segments.map((each, i) => [each, unit.roles[i] as SegmentRole]));
    roleMaps.set(unit, roles);
  }
  return roles.get(segment) as SegmentRole;
}

/** Every unit of the tree, the command first. */
export function allUnits(unit: Unit): Unit[] {
  return [unit, ...unit.children.flatMap(allUnits)];
}

/** The innermost frame of a segment. */
export function frameOf(segment: Segment): Context {
  return segment.context[segment.context.length - 1] as Context;
}
