import type { CommandLine, Context, Segment, Word } from '@kit/shell-segments';
import { frameDepth, listLines, unwrapLaunchers } from '@kit/shell-segments';
import { type HeadRole, roleOfHead } from './head-role.ts';
import type { Registry } from './registry.ts';

/** What a segment is to the rules: its own head's role, widened by the command lines it runs (bash -c, eval, find -exec). */
export interface SegmentRole extends HeadRole {
  words: string[]; // the head words
  gateHead: string | null; // the gate whose status this segment's status is: its own head, or the last one of a line it runs
  containsGate: boolean; // a gate runs here, also in a line it runs
  containsMutator: boolean; // a state change runs here, also in a line it runs
}

/**
 * One shell the rules judge on its own: one command line of the tree, the top one or one that a
 * segment runs (bash -c, eval, env -S, a find -exec action: a new process, so nothing of the outer
 * shell's options or background reaches it).
 */
export interface Unit {
  line: CommandLine;
  source: string; // line.source
  segments: Segment[]; // line.segments
  roles: SegmentRole[]; // by position in segments
  children: Unit[]; // the units of the lines its segments run, in the line's order
}

function wordText(word: Word): string {
  return word.value ?? word.text;
}

/** Builds a unit for every command line of the tree that parsed; returns the top line's. */
export function buildUnit(top: CommandLine, registry: Registry): Unit {
  const units = new Map<CommandLine, Unit>();
  // Deepest first: a segment's role reads the units of the lines it runs.
  for (const line of listLines(top).reverse()) units.set(line, unitOf(line, units, registry));
  return units.get(top) as Unit;
}

function unitOf(line: CommandLine, units: ReadonlyMap<CommandLine, Unit>, registry: Registry): Unit {
  const children = line.nested.flatMap((nested) => (nested.ok ? [units.get(nested.line) as Unit] : []));
  const unit: Unit = { line, source: line.source, segments: line.segments, roles: [], children };
  unit.roles = line.segments.map((segment) => {
    const run = children.filter((child) => child.line.runner?.segment === segment);
    const words = headWordsOf(segment, run).map(wordText);
    const role: SegmentRole = {
      ...roleOfHead(words, registry),
      words,
      gateHead: null,
      containsGate: false,
      containsMutator: false,
    };
    role.gateHead = role.gate ? role.head : null;
    role.containsGate = role.gate || run.some((child) => child.roles.some((r) => r.containsGate));
    role.containsMutator = role.mutator || run.some((child) => child.roles.some((r) => r.containsMutator));
    const carried = run.map(lastGateOf).find((head) => head !== null) ?? null;
    if (carried !== null && !role.gate) {
      role.gate = true;
      role.gateHead = carried;
    }
    return role;
  });
  return unit;
}

/**
 * The head words a segment's role is read from: after launchers, and for `find … -exec cmd … ;`
 * the first action's (find's status is that of what it runs, as far as a check goes).
 */
function headWordsOf(segment: Segment, run: Unit[]): Word[] {
  const [first] = run;
  if (first?.line.runner?.kind === 'find-exec') {
    const action = first.segments.find((each) => frameDepth(each) === 0);
    if (action) return unwrapLaunchers(action.argv).head;
  }
  return unwrapLaunchers(segment.argv).head;
}

/** The head of the gate a unit's status comes from: its last top-level statement, when that is a gate. */
function lastGateOf(unit: Unit): string | null {
  let last: Segment | null = null;
  for (const segment of unit.segments) {
    if (frameDepth(segment) === 0 && segment.last) last = segment;
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
