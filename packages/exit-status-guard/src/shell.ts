import type { CommandLine, Context, Segment, Word } from '@kit/shell-segments';
import { frameDepth, listLines, unwrapLaunchers } from '@kit/shell-segments';
import { type HeadRole, headRolesOf } from './head-role.ts';
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
 * shell's options or background reaches it), with the role of each of its segments.
 */
export interface Shell {
  line: CommandLine;
  source: string; // line.source
  segments: Segment[]; // line.segments
  roles: SegmentRole[]; // by position in segments
  children: Shell[]; // the shells of the lines its segments run, in the line's order
}

function wordText(word: Word): string {
  return word.value ?? word.text;
}

/** Reads every command line of the tree that parsed into a shell with its roles; returns the top line's. */
export function readShells(top: CommandLine, registry: Registry): Shell {
  const shells = new Map<CommandLine, Shell>();
  const roleOfWords = headRolesOf(registry);
  // Deepest first: a segment's role reads the shells of the lines it runs.
  for (const line of listLines(top).reverse()) shells.set(line, shellOf(line, shells, roleOfWords));
  return shells.get(top) as Shell;
}

// Tools whose exit status is that of the command line they run: `npm exec -c '…'`, `npx -c '…'`.
const statusCarryingTools: ReadonlySet<string> = new Set(['npm', 'npx']);

/**
 * Whether the rules judge a nested line: every one but a tool-command line of a tool that exits
 * with a status of its own (vim's and ed's `!`, sed's `e`, watch): no status of the line reaches
 * the caller there, and a rewrite could not be spliced back into the tool's own text (vim expands
 * `%` and `!` in it, sed ends it at the line's end), so those lines get no opinion here.
 */
function isJudgedHere(line: CommandLine): boolean {
  const runner = line.runner;
  if (runner === null || runner.kind !== 'tool-command') return true;
  const tool = unwrapLaunchers(runner.segment.argv).head[0]?.value;
  return typeof tool === 'string' && statusCarryingTools.has(tool.slice(tool.lastIndexOf('/') + 1));
}

function shellOf(
  line: CommandLine,
  shells: ReadonlyMap<CommandLine, Shell>,
  roleOfWords: (words: readonly string[]) => HeadRole,
): Shell {
  const children = line.nested.flatMap((nested) =>
    nested.ok && isJudgedHere(nested.line) ? [shells.get(nested.line) as Shell] : [],
  );
  const shell: Shell = { line, source: line.source, segments: line.segments, roles: [], children };
  shell.roles = line.segments.map((segment) => {
    const run = children.filter((child) => child.line.runner?.segment === segment);
    const words = headWordsOf(segment, run).map(wordText);
    const role: SegmentRole = {
      ...roleOfWords(words),
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
  return shell;
}

/**
 * The head words a segment's role is read from: after launchers, and for `find … -exec cmd … ;`
 * the first action's (find's status is that of what it runs, as far as a check goes).
 */
function headWordsOf(segment: Segment, run: Shell[]): Word[] {
  const [first] = run;
  if (first?.line.runner?.kind === 'find-exec') {
    const action = first.segments.find((each) => frameDepth(each) === 0);
    if (action) return unwrapLaunchers(action.argv).head;
  }
  return unwrapLaunchers(segment.argv).head;
}

/** The head of the gate a shell's status comes from: its last top-level statement, when that is a gate. */
function lastGateOf(shell: Shell): string | null {
  let last: Segment | null = null;
  for (const segment of shell.segments) {
    if (frameDepth(segment) === 0 && segment.last) last = segment;
  }
  if (last === null) return null;
  const role = shell.roles[shell.segments.indexOf(last)];
  return role?.gate ? role.gateHead : null;
}

const roleMaps = new WeakMap<Shell, Map<Segment, SegmentRole>>();

/** The role of a segment of this shell. */
export function roleOf(shell: Shell, segment: Segment): SegmentRole {
  let roles = roleMaps.get(shell);
  if (roles === undefined) {
    roles = new Map(shell.segments.map((each, i) => [each, shell.roles[i] as SegmentRole]));
    roleMaps.set(shell, roles);
  }
  return roles.get(segment) as SegmentRole;
}

/** Every shell of the tree, the top one first, then each child's, depth first. */
export function allShells(shell: Shell): Shell[] {
  return [shell, ...shell.children.flatMap(allShells)];
}

/** A segment that runs a gate, as gatesIn meets it. */
export interface GateVisit {
  shell: Shell;
  segment: Segment;
  role: SegmentRole; // role.gate: its own status is a gate's; otherwise a gate runs inside it
}

/**
 * Every segment a gate runs in (role.containsGate), shell by shell (the top one first, then each
 * child's, depth first), in document order within a shell: the loop every rule that looks for a
 * gate starts from.
 */
export function* gatesIn(top: Shell): Generator<GateVisit, void, undefined> {
  for (const shell of allShells(top)) {
    for (const [i, segment] of shell.segments.entries()) {
      const role = shell.roles[i] as SegmentRole;
      if (role.containsGate) yield { shell, segment, role };
    }
  }
}

/** The main list of a shell (the frame every one of its segments starts from). */
export function mainOf(shell: Shell): Context | undefined {
  return shell.segments[0]?.context[0];
}

/** The innermost frame of a segment. */
export function frameOf(segment: Segment): Context {
  return segment.context[segment.context.length - 1] as Context;
}
