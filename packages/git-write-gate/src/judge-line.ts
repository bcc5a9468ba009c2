import {
  type ParseOutcome,
  parseNested,
  type Segment,
  unwrapLaunchers,
  type Word,
} from '@kit/shell-segments';
import {
  applyDirectoryChanges,
  type DirectoryMove,
  directoryMoveOf,
  directoryOf,
} from './effective-directory.ts';
import { hasEscapeAssignment } from './escape.ts';
import { laterFindActions } from './find-exec.ts';
import type { HeadWord } from './git-global-options.ts';
import { judgeHead, type WriteKind } from './write-class.ts';

/** Records a segment the gate cannot judge, and why. */
type Unknown = (cause: 'nested' | 'expansion', why: string, at: string) => void;

/** Something on the line the gate has to answer for. */
export type Finding =
  | {
      kind: 'write';
      segment: string;
      write: WriteKind;
      directory: string;
      retargeted: boolean;
      escaped: boolean;
    }
  | {
      kind: 'unknown';
      cause: 'nested' | 'expansion';
      segment: string;
      why: string;
      directory: string;
      escaped: boolean;
    };

// `eval "eval \"eval …\""`: past this depth the line is not judged.
const maxNesting = 8;

interface Frame {
  base: string; // the directory the outcome's first segment runs in
  escaped: boolean; // the string came from a segment carrying the escape
  nesting: number;
}

/** What the walk carries from one segment to the next, across nested strings too. */
interface LineState {
  afterInit: boolean; // `git init` came earlier on the line
  findings: Finding[];
}

/**
 * Every write and every "cannot judge" on a parsed line, at every depth: the segments of the
 * outcome (subshells, groups, bodies, substitutions are already segments of it), and the strings
 * given to `bash -c` / `eval` / `env -S`, re-parsed and walked as commands of their own.
 */
export function findWrites(outcome: ParseOutcome & { ok: true }, cwd: string): Finding[] {
  const state: LineState = { afterInit: false, findings: [] };
  walkOutcome(outcome, { base: cwd, escaped: false, nesting: 0 }, state);
  return state.findings;
}

function walkOutcome(outcome: ParseOutcome & { ok: true }, frame: Frame, state: LineState): void {
  const moves: DirectoryMove[] = [];
  for (const segment of outcome.segments) {
    const directory = directoryOf(segment, frame.base, moves);
    const unwrapped = unwrapLaunchers(segment.argv);
    const head = unwrapped.head.map((word) => word.value);
    const escaped =
      frame.escaped || hasEscapeAssignment(segment.assigns) || hasEscapeAssignment(unwrapped.assigns);
    const unknown: Unknown = (cause, why, at) => {
      state.findings.push({ kind: 'unknown', cause, segment: segment.text, why, directory: at, escaped });
    };

    const move = directoryMoveOf(
      segment,
      head,
      unwrapped.head.map((word) => word.dynamic),
      directory,
    );
    if (move !== null) moves.push(move);

    // env -C DIR / sudo -D DIR run the command elsewhere, before any git -C applies.
    const launchedIn = applyDirectoryChanges(
      directory,
      unwrapped.directories.map((word) => (word.dynamic ? null : word.value)),
    );
    walkNested(segment, launchedIn, escaped, frame, state, unknown);

    const assignNames = [
      ...segment.assigns.map((assign) => assign.name),
      ...unwrapped.assigns.map((assign) => assign.name),
    ];
    const later = unwrapped.launchers.includes('find') ? laterFindActions(segment.argv) : [];
    const heads = [unwrapped, ...later.map((action) => unwrapLaunchers(action))];
    for (const { head: words, launchers } of heads) {
      judgeWords(
        words,
        headValues(words, [...unwrapped.launchers, ...launchers]),
        assignNames,
        segment,
        launchedIn,
        escaped,
        state,
        unknown,
      );
    }
  }
}

/**
 * The values judgeHead reads. Arguments a launcher supplies at run time are unknown: `find -exec`
 * replaces `{}` with found paths (`.` first, for `find .`), and `xargs` appends its input lines.
 */
function headValues(words: Word[], launchers: string[]): HeadWord[] {
  const values: HeadWord[] = words.map((word) =>
    launchers.includes('find') && word.value === '{}' ? null : word.value,
  );
  if (launchers.includes('xargs') && values.length > 0) values.push(null);
  return values;
}

function judgeWords(
  words: Word[],
  values: HeadWord[],
  assignNames: string[],
  segment: Segment,
  directory: string,
  escaped: boolean,
  state: LineState,
  unknown: Unknown,
): void {
  const first = words[0];
  if (first !== undefined && first.value === null && /git|gh/i.test(first.text)) {
    unknown('expansion', 'the command name is an expansion that may be git or gh', directory);
    return;
  }
  const judged = judgeHead(values, assignNames);
  switch (judged.kind) {
    case 'pass':
      return;
    case 'git-init':
      state.afterInit = true;
      return;
    case 'write':
      // After `git init` the later git segments work in a fresh repository; gh acts on a remote.
      if (state.afterInit && judged.write !== 'pr-merge') return;
      state.findings.push({
        kind: 'write',
        segment: segment.text,
        write: judged.write,
        directory: applyDirectoryChanges(directory, judged.directories),
        retargeted: judged.retargeted,
        escaped,
      });
      return;
    case 'unknown':
      if (!state.afterInit)
        unknown('expansion', judged.why, applyDirectoryChanges(directory, judged.directories));
      return;
  }
}

function walkNested(
  segment: Segment,
  directory: string,
  escaped: boolean,
  frame: Frame,
  state: LineState,
  unknown: Unknown,
): void {
  let nested: ReturnType<typeof parseNested>;
  try {
    nested = parseNested(segment);
  } catch (error) {
    unknown('nested', `reading the string it runs threw (${describe(error)})`, directory);
    return;
  }
  if (nested === null) return;
  if (!nested.ok) {
    unknown('nested', `the string it runs cannot be read (${nested.reason}: ${nested.message})`, directory);
    return;
  }
  if (frame.nesting + 1 > maxNesting) {
    unknown('nested', `commands nested deeper than ${maxNesting} levels`, directory);
    return;
  }
  walkOutcome(nested, { base: directory, escaped, nesting: frame.nesting + 1 }, state);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
