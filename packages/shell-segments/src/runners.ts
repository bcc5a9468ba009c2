import { unwrapLaunchers } from './launchers.ts';
import type { NestedKind, Segment, Word } from './types.ts';

/** A command line a segment runs, before it is parsed: its text, or why the text is not known. */
export type NestedText = { kind: NestedKind; start: number; end: number } & (
  | { text: string }
  | { text: null; message: string } // only known at run time
);

const shells = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh']);
const findActions = new Set(['-exec', '-execdir', '-ok', '-okdir']);

/**
 * The command lines a segment hands on, in the order they stand: the string of
 * bash|sh|zsh|dash|ksh -c 'str' (any flags: -lc, -ec, -o pipefail -c), eval 'a' 'b' (joined by
 * spaces, as bash does), env -S 'str' [operands] — after launchers — and the command of every
 * find -exec / -execdir / -ok / -okdir action. `source` is the text of the segment's own line.
 */
export function findNestedTexts(segment: Segment, source: string): NestedText[] {
  const unwrapped = unwrapLaunchers(segment.argv);
  const { head, splitString } = unwrapped;
  if (splitString !== null) return [splitStringText(segment, splitString, head.slice(1))];
  // flock FILE -c 'str', script -c 'str': the tool hands the string to a shell, as bash -c does.
  if (unwrapped.shellString !== null) return [attachedShellString(segment, unwrapped.shellString)];
  const command = head[0];
  if (command === undefined || command.value === null || command.dynamic) return [];
  const name = command.value.slice(command.value.lastIndexOf('/') + 1);
  if (name === 'find') return findExecTexts(head.slice(1), source);
  if (name === 'eval') {
    const words = head.slice(1);
    if (words[0]?.value === '--') words.shift();
    return words.length > 0 ? [joinedText('eval', words)] : [];
  }
  if (!shells.has(name)) return [];
  const string = shellString(head.slice(1));
  return string === null ? [] : [joinedText('shell-string', [string])];
}

/** The text of `words` joined by spaces, spanning them; unknown when one of them is only known at run time. */
function joinedText(kind: NestedKind, words: Word[]): NestedText {
  const start = (words[0] as Word).start;
  const end = (words[words.length - 1] as Word).end;
  const dynamic = words.find(isDynamic);
  if (dynamic) return { kind, start, end, text: null, message: runTimeMessage(dynamic) };
  return { kind, start, end, text: words.map((word) => word.value as string).join(' ') };
}

/**
 * env -S 'git push' origin: the operands after the string are appended to its split words, each
 * quoted as one word; the text spans the string and the operands.
 */
function splitStringText(segment: Segment, string: Word, operands: Word[]): NestedText {
  // -S'git push' / --split-string='git push': the string is the rest of an option word, which stays.
  const attached = segment.argv.includes(string)
    ? null
    : /^(?:-[A-Za-z]*S|--split-string=)/.exec(string.text);
  const start = attached === null ? string.start : string.start + attached[0].length;
  const end = (operands[operands.length - 1] ?? string).end;
  const dynamic = [string, ...operands.filter((word) => word.value === null)].find(isDynamic);
  if (dynamic) return { kind: 'split-string', start, end, text: null, message: runTimeMessage(dynamic) };
  const quoted = operands.map((word) => ` '${(word.value as string).replace(/'/g, `'\\''`)}'`);
  return { kind: 'split-string', start, end, text: (string.value as string) + quoted.join('') };
}

/** The -c string of flock or script: its own word, or the rest of an option word (`-qc'make check'`, `--command=…`), which stays. */
function attachedShellString(segment: Segment, string: Word): NestedText {
  if (segment.argv.includes(string)) return joinedText('shell-string', [string]);
  const prefix = /^(?:-[A-Za-z]*c|--[a-z-]+=)/.exec(string.text);
  const start = string.start + (prefix?.[0].length ?? 0);
  if (prefix === null || isDynamic(string))
    return { kind: 'shell-string', start, end: string.end, text: null, message: runTimeMessage(string) };
  return { kind: 'shell-string', start, end: string.end, text: string.value as string };
}

function isDynamic(word: Word): boolean {
  return word.value === null || word.dynamic;
}

function runTimeMessage(word: Word): string {
  return `the command string ${word.text} is only known at run time`;
}

/** The string word of a shell's -c, the flags read as bash reads them; null when there is none. */
function shellString(words: Word[]): Word | null {
  let sawC = false;
  for (let i = 0; i < words.length; i += 1) {
    const word = words[i] as Word;
    const value = word.value;
    // An expansion where an option could stand (bash $flags -c 'git push'): the string may be
    // anything once the expansion is known, so a -c anywhere after it makes the call dynamic.
    if (value === null) return sawC || hasLaterC(words, i) ? word : null;
    if (value === '--' || value === '-') return sawC ? (words[i + 1] ?? null) : null;
    if (value.startsWith('--')) {
      if (value === '--rcfile' || value === '--init-file') i += 1;
      continue;
    }
    if (/^[-+][A-Za-z]+$/.test(value)) {
      if (value.startsWith('-') && value.includes('c')) sawC = true;
      // -o pipefail, +O extglob: the option name is the next word.
      if (/[oO]/.test(value.slice(1))) i += 1;
      continue;
    }
    return sawC ? word : null;
  }
  return null;
}

function hasLaterC(words: Word[], from: number): boolean {
  return words
    .slice(from + 1)
    .some((word) => word.value !== null && /^-[A-Za-z]*c[A-Za-z]*$/.test(word.value));
}

/**
 * find … -exec cmd args {} ; (or +), every action: the action's words as written in the line's
 * source, so their quotes stay. `;` ends an action; `+` ends it right after `{}`; an action left
 * open runs to the end of the words.
 */
function findExecTexts(words: Word[], source: string): NestedText[] {
  const texts: NestedText[] = [];
  let action: Word[] | null = null;
  const close = (): void => {
    if (action !== null && action.length > 0) {
      const start = (action[0] as Word).start;
      const end = (action[action.length - 1] as Word).end;
      texts.push({ kind: 'find-exec', start, end, text: source.slice(start, end) });
    }
    action = null;
  };
  for (const word of words) {
    if (action === null) {
      if (word.value !== null && findActions.has(word.value)) action = [];
    } else if (word.value === ';' || (word.value === '+' && action[action.length - 1]?.value === '{}')) {
      close();
    } else {
      action.push(word);
    }
  }
  close();
  return texts;
}
