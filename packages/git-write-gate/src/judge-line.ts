import {
  type CommandLine,
  type Nested,
  nestedRunBy,
  unwrapLaunchers,
  walkSegments,
  type Word,
} from '@kit/shell-segments';
import {
  applyDirectoryChanges,
  type DirectoryMove,
  directoryMoveOf,
  directoryOf,
} from './effective-directory.ts';
import { hasEscapeAssignment } from './escape.ts';
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

/** How many command lines deep the gate reads (`eval "eval \"eval …\""`); deeper, the line is not judged. */
export const maxNesting = 8;

/** What the segments of one command line inherit from the segment that runs it. */
interface LineFrame {
  base: string; // the directory the line's first segment runs in
  escaped: boolean; // the line is run by a segment carrying the escape
  assignNames: readonly string[]; // a find action's line: the names assigned in front of the find (GH_REPO=)
  subject: string | null; // a find action's line: the find, which a reason names (and a GIT_GATE=off prefix goes before)
}

/** What the walk carries from one segment to the next, across nested lines too. */
interface LineState {
  afterInit: boolean; // `git init` came earlier on the line
  findings: Finding[];
}

/**
 * Every write and every "cannot judge" on a parsed command, at every depth: the segments of each
 * command line of the tree (subshells, groups, bodies, substitutions are segments of their line),
 * the lines given to `bash -c` / `eval` / `env -S` and every `find -exec` action included, in the
 * order the shared walk meets them.
 */
export function findWrites(top: CommandLine, cwd: string): Finding[] {
  const state: LineState = { afterInit: false, findings: [] };
  const frames = new Map<CommandLine, LineFrame>([
    [top, { base: cwd, escaped: false, assignNames: [], subject: null }],
  ]);
  const moves = new Map<CommandLine, DirectoryMove[]>();
  for (const { segment, line } of walkSegments(top)) {
    const frame = frames.get(line) as LineFrame;
    const lineMoves = moves.get(line) ?? [];
    moves.set(line, lineMoves);
    const directory = directoryOf(segment, frame.base, lineMoves);
    const unwrapped = unwrapLaunchers(segment.argv);
    const head = unwrapped.head.map((word) => word.value);
    const escaped =
      frame.escaped || hasEscapeAssignment(segment.assigns) || hasEscapeAssignment(unwrapped.assigns);
    const subject = frame.subject ?? segment.text;
    const unknown: Unknown = (cause, why, at) => {
      state.findings.push({ kind: 'unknown', cause, segment: subject, why, directory: at, escaped });
    };

    const move = directoryMoveOf(
      segment,
      head,
      unwrapped.head.map((word) => word.dynamic),
      directory,
    );
    if (move !== null) lineMoves.push(move);

    // env -C DIR / sudo -D DIR run the command elsewhere, before any git -C applies.
    const launchedIn = applyDirectoryChanges(
      directory,
      unwrapped.directories.map((word) => (word.dynamic ? null : word.value)),
    );
    const assignNames = [
      ...frame.assignNames,
      ...segment.assigns.map((assign) => assign.name),
      ...unwrapped.assigns.map((assign) => assign.name),
    ];
    // The lines this segment runs are walked right after it, from where it runs them.
    for (const nested of nestedRunBy(line, segment)) {
      if (!nested.ok) {
        unknown('nested', whyUnread(nested), launchedIn);
        continue;
      }
      const findAction = nested.line.runner?.kind === 'find-exec';
      frames.set(nested.line, {
        base: launchedIn,
        escaped,
        // A find's assignments stand in front of each action's command, as they stood in front of
        // find's own head (GH_REPO=x find … -exec gh pr merge); a string's line starts with none.
        assignNames: findAction ? assignNames : [],
        subject: findAction ? subject : null,
      });
    }

    judgeWords(
      unwrapped.head,
      headValues(unwrapped.head, unwrapped.launchers, line),
      assignNames,
      subject,
      launchedIn,
      escaped,
      state,
      unknown,
    );
  }
  return state.findings;
}

function whyUnread(nested: Nested & { ok: false }): string {
  if (nested.reason === 'too-deep') return `commands nested deeper than ${maxNesting} levels`;
  return `the string it runs cannot be read (${nested.reason}: ${nested.message})`;
}

/**
 * The values judgeHead reads. Arguments supplied at run time are unknown: in a find action's line
 * `{}` is a found path (`.` first, for `find .`), and `xargs` appends its input lines.
 */
function headValues(words: Word[], launchers: string[], line: CommandLine): HeadWord[] {
  const found = line.runner?.kind === 'find-exec';
  const values: HeadWord[] = words.map((word) => (found && word.value === '{}' ? null : word.value));
  if (launchers.includes('xargs') && values.length > 0) values.push(null);
  return values;
}

function judgeWords(
  words: Word[],
  values: HeadWord[],
  assignNames: string[],
  subject: string,
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
        segment: subject,
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
