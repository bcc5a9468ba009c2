import { type LauncherSpec, launcherSpecOf, type OptionSpec } from './launcher-options.ts';
import type { Segment, Word } from './types.ts';

/** What unwrapLaunchers found: the command words, and what stood in front of them. */
export interface Unwrapped {
  head: Word[]; // git push, after sudo -u x env A=1
  launchers: string[]; // ['sudo', 'env']
  assigns: { name: string; value: string }[]; // env and sudo NAME=value operands
  splitString: Word | null; // env -S 'str': a command line of its own (parse reads it); also head[0]
  shellString: Word | null; // flock FILE -c 'str', script -c 'str': a command line a shell runs (parse reads it); the head is empty
  directories: Word[]; // env -C DIR, sudo -D DIR: where the command runs, in the order they apply
  roots: { word: Word; chdir: boolean; at: number }[]; // chroot NEWROOT: the root the command runs in; chdir: at its `/` (no --skip-chdir), after `at` directories
}

/**
 * The command words after launchers, each read with its own option grammar as the tool reads it
 * (launcher-options.ts): env, sudo, doas, command, builtin, exec, nohup, nice, stdbuf, timeout,
 * time (the program), xargs, setsid, ionice, chrt, taskset, flock, script, runuser, su, chroot,
 * unshare, fakeroot, prlimit, setpriv. Long options match by
 * any unique prefix (`sudo --us root`); an ambiguous one is an error, so nothing runs. `find` is
 * not a launcher: each of its -exec actions is a command line of its own (see parse), so the head
 * stays `find …`. A query runs no command and gives an empty head (`command -v git`, `sudo -l`,
 * `ionice -p 12`). A dynamic word where an option could stand ends the unwrapping. env -S 'str':
 * `splitString` is the string word, which also leads the head. flock/script -c 'str':
 * `shellString`, with an empty head. env -C DIR and sudo -D DIR: `directories`.
 */
export function unwrapLaunchers(argv: Word[]): Unwrapped {
  const result: Unwrapped = {
    head: [],
    launchers: [],
    assigns: [],
    splitString: null,
    shellString: null,
    directories: [],
    roots: [],
  };
  let words = argv;
  for (;;) {
    const first = words[0];
    const name = first && !first.dynamic && first.value !== null ? basename(first.value) : null;
    const spec = name === null ? undefined : launcherSpecOf(name);
    if (name === null || spec === undefined) break;
    result.launchers.push(name);
    const rest = readLauncher(spec, words.slice(1), result);
    if (rest === null) return result;
    words = rest;
  }
  result.head = words;
  return result;
}

/** The head words as one string: words after launchers and assignments, static values, joined by spaces. */
export function headText(segment: Segment): string {
  return unwrapLaunchers(segment.argv)
    .head.map((word) => word.value ?? word.text)
    .join(' ');
}

/** One option as the reader found it: its spec and its value word (null when it has none). */
interface FoundOption {
  spec: OptionSpec;
  value: Word | null;
}

/** What reading one option word gave: the options in it and how many words it used, or why the tool stops. */
type OptionWord = { ok: true; options: FoundOption[]; used: number } | { ok: false; reason: 'error' };

/**
 * Skips one launcher's options, assignments and operands; the words of the command it runs, or
 * null when it runs none here (a query, an error, -S or -c, nothing left).
 */
function readLauncher(spec: LauncherSpec, words: Word[], result: Unwrapped): Word[] | null {
  let i = 0;
  let sawUser = false; // runuser/su -u user: the command words follow the options
  let sawKeep = false; // chroot --skip-chdir
  while (i < words.length) {
    const word = words[i] as Word;
    const value = word.value;
    if (value === null || word.dynamic) {
      if (spec.assigns === 'sudo' && isSudoAssignment(word)) {
        result.assigns.push(assignmentOf(word));
        i += 1;
        continue;
      }
      if (spec.assigns === 'env' && isEnvAssignment(word)) break;
      if (spec.permute && !sawUser) {
        i += 1; // an operand: script reads options on past it
        continue;
      }
      return words.slice(i);
    }
    if (value === '--') {
      i += 1; // after `--`, sudo takes no NAME=value: `sudo -- A=1 make` runs a program named A=1
      break;
    }
    if (spec.numeric && /^-[-+]?\d+$/.test(value)) {
      i += 1;
      continue;
    }
    if (value === '-' && spec.assigns === 'env') {
      i += 1; // env - is env -i
      continue;
    }
    if (value.startsWith('-') && value !== '-') {
      const taken = takeOptionWord(spec, words, i, result);
      if (taken === null) return null;
      sawUser ||= taken.user;
      sawKeep ||= taken.keep;
      i += taken.used;
      continue;
    }
    if (spec.assigns === 'sudo' && isSudoAssignment(word)) {
      result.assigns.push(assignmentOf(word));
      i += 1;
      continue;
    }
    if (spec.permute && !sawUser) {
      i += 1;
      continue;
    }
    break;
  }
  // script runs no command words of its own: only the string of -c, if any (shellString); nor
  // does su without -u (its operands are a user and the shell's arguments).
  if (spec.command === 'none' || (spec.suCommand && !sawUser)) return null;
  if (spec.assigns === 'env') {
    // GNU env takes every word holding `=` as NAME=value (also after `--`, also `'a b=c'`).
    for (; i < words.length && isEnvAssignment(words[i] as Word); i += 1) {
      result.assigns.push(assignmentOf(words[i] as Word));
    }
  }
  const root = spec.root ? words[i] : undefined;
  if (root !== undefined) result.roots.push({ word: root, chdir: !sawKeep, at: result.directories.length });
  i += spec.operands ?? 0;
  if (spec.commandString) {
    const flag = words[i]?.value;
    if (flag === '-c' || flag === '--command') {
      const string = words[i + 1];
      if (string !== undefined && words.length === i + 2) result.shellString = string;
      return null;
    }
  }
  return i < words.length ? words.slice(i) : null;
}

/**
 * The options of one word that starts with `-`, applied to `result`: how many words they used and
 * whether one was runuser/su's `-u`; null when the tool runs no command here (an error, a query,
 * env -S, sudo -h alone).
 */
function takeOptionWord(
  spec: LauncherSpec,
  words: Word[],
  at: number,
  result: Unwrapped,
): { used: number; user: boolean; keep: boolean } | null {
  const read = readOptionWord(spec, words, at);
  if (!read.ok) return null;
  let used = read.used;
  for (const option of read.options) {
    const effect = option.spec.effect;
    if (effect === 'stop') return null;
    if (effect === 'split') return split(option.value, words, at + read.used, result);
    if (effect === 'chdir' && option.value !== null) result.directories.push(option.value);
    if (effect === 'shell-string' && option.value !== null) result.shellString = option.value;
    if (effect === 'host' && option.value === null) {
      // sudo: `-h` alone is help; `-h host` (a plain word, not NAME=value) names a remote host.
      const next = words[at + 1];
      if (
        words[at]?.value !== '-h' ||
        !next ||
        (next.value ?? next.text).startsWith('-') ||
        isSudoAssignment(next)
      )
        return null;
      used += 1;
    }
  }
  const user = read.options.some((option) => option.spec === spec.short.u || option.spec === spec.long.user);
  const keep = read.options.some((option) => option.spec.effect === 'keep-directory');
  return { used, user, keep };
}

/** One word that starts with `-`: a long option with its value, or a cluster of short ones. */
function readOptionWord(spec: LauncherSpec, words: Word[], at: number): OptionWord {
  const word = words[at] as Word;
  const value = word.value as string;
  if (value.startsWith('--')) {
    const [name, attached] = splitLong(value.slice(2));
    const found = matchLong(spec, name);
    // Unknown: read as a flag (the table may lag the tool); ambiguous: getopt_long refuses it.
    if (found === 'unknown') return { ok: true, options: [], used: 1 };
    if (found === 'ambiguous') return { ok: false, reason: 'error' };
    if (found.arg === 'none') {
      return attached === null
        ? { ok: true, options: [{ spec: found, value: null }], used: 1 }
        : { ok: false, reason: 'error' };
    }
    if (attached !== null)
      return { ok: true, options: [{ spec: found, value: { ...word, value: attached } }], used: 1 };
    if (found.arg === 'optional') return { ok: true, options: [{ spec: found, value: null }], used: 1 };
    const next = words[at + 1];
    return next === undefined
      ? { ok: false, reason: 'error' }
      : { ok: true, options: [{ spec: found, value: next }], used: 2 };
  }
  const options: FoundOption[] = [];
  for (let j = 1; j < value.length; j += 1) {
    const option = spec.short[value[j] as string];
    if (option === undefined) continue; // unknown: read as a flag
    if (option.arg === 'none') {
      options.push({ spec: option, value: null });
      continue;
    }
    const rest = value.slice(j + 1);
    if (rest !== '') {
      options.push({ spec: option, value: { ...word, value: rest } });
      return { ok: true, options, used: 1 };
    }
    if (option.arg === 'optional') {
      options.push({ spec: option, value: null });
      return { ok: true, options, used: 1 };
    }
    const next = words[at + 1];
    if (next === undefined) return { ok: false, reason: 'error' };
    options.push({ spec: option, value: next });
    return { ok: true, options, used: 2 };
  }
  return { ok: true, options, used: 1 };
}

function splitLong(text: string): [string, string | null] {
  const at = text.indexOf('=');
  return at < 0 ? [text, null] : [text.slice(0, at), text.slice(at + 1)];
}

/** A long option by its full name or a unique prefix, as getopt_long matches it. */
function matchLong(spec: LauncherSpec, name: string): OptionSpec | 'unknown' | 'ambiguous' {
  const exact = spec.long[name];
  if (exact !== undefined) return exact;
  const candidates = Object.entries(spec.long).filter(([full]) => full.startsWith(name));
  if (candidates.length === 0 || name === '') return 'unknown';
  return candidates.length === 1 ? (candidates[0] as [string, OptionSpec])[1] : 'ambiguous';
}

function split(splitWord: Word | null, words: Word[], restAt: number, result: Unwrapped): null {
  if (splitWord === null) return null;
  result.splitString = splitWord;
  // env -S 'git push' origin runs git push origin: the string leads the head (parse reads it as a line).
  result.head = [splitWord, ...words.slice(restAt)];
  return null;
}

/** GNU env's NAME=value: any word holding `=` (env does not check the name). */
function isEnvAssignment(word: Word): boolean {
  return (word.value ?? word.text).includes('=');
}

/** sudo's NAME=value: a word holding `=` that starts with neither `/` nor `=` (parse_args.c's is_envar). */
function isSudoAssignment(word: Word): boolean {
  const text = word.value ?? word.text;
  return text.includes('=') && !text.startsWith('/') && !text.startsWith('=');
}

function assignmentOf(word: Word): { name: string; value: string } {
  const source = word.value ?? word.text;
  const at = source.indexOf('=');
  return { name: source.slice(0, at), value: source.slice(at + 1) };
}

function basename(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}
