import type { Segment, Word } from './types.ts';

/** How one launcher reads its own options before the command it runs. */
interface LauncherSpec {
  valueShort?: string; // short options that take a value, attached (-n1) or as the next word (-n 1)
  attachedShort?: string; // short options whose optional value can only be attached (xargs -i{})
  valueLong?: readonly string[]; // long options that take a value: --user=x or --user x
  lookupShort?: string; // options after which no command runs (command -v, sudo -l)
  lookupLong?: readonly string[];
  numericOption?: boolean; // nice -10
  assigns?: boolean; // NAME=value operands before the command (env, sudo)
  operands?: number; // positional operands before the command (timeout DURATION)
  splitShort?: string; // env -S 'string': a command line in one word
  splitLong?: string;
  chdirShort?: string; // env -C DIR, sudo -D DIR: the command runs in DIR
  chdirLong?: string;
}

const launchers: Readonly<Record<string, LauncherSpec>> = {
  env: {
    valueShort: 'uCP',
    valueLong: ['--unset', '--chdir'],
    lookupLong: ['--help', '--version'],
    assigns: true,
    splitShort: 'S',
    splitLong: '--split-string',
    chdirShort: 'C',
    chdirLong: '--chdir',
  },
  sudo: {
    valueShort: 'ugpCDrtTUcR',
    valueLong: [
      '--user',
      '--group',
      '--prompt',
      '--close-from',
      '--chdir',
      '--role',
      '--type',
      '--command-timeout',
      '--other-user',
      '--login-class',
      '--chroot',
      '--host',
    ],
    lookupShort: 'elvVKh',
    lookupLong: ['--edit', '--list', '--validate', '--version', '--remove-timestamp', '--help'],
    assigns: true,
    chdirShort: 'D',
    chdirLong: '--chdir',
  },
  command: { lookupShort: 'vV' },
  builtin: {},
  exec: { valueShort: 'a' },
  nohup: { lookupLong: ['--help', '--version'] },
  time: { valueShort: 'fo', valueLong: ['--format', '--output'], lookupLong: ['--help', '--version'] },
  nice: {
    valueShort: 'n',
    valueLong: ['--adjustment'],
    numericOption: true,
    lookupLong: ['--help', '--version'],
  },
  stdbuf: {
    valueShort: 'ioe',
    valueLong: ['--input', '--output', '--error'],
    lookupLong: ['--help', '--version'],
  },
  timeout: {
    valueShort: 'sk',
    valueLong: ['--signal', '--kill-after'],
    lookupLong: ['--help', '--version'],
    operands: 1,
  },
  xargs: {
    valueShort: 'adEILnPs',
    attachedShort: 'eil',
    valueLong: [
      '--arg-file',
      '--delimiter',
      '--max-args',
      '--max-procs',
      '--max-chars',
      '--process-slot-var',
    ],
    lookupLong: ['--help', '--version'],
  },
};

const assignmentWord = /^([A-Za-z_][A-Za-z0-9_]*)=/;

/** What unwrapLaunchers found: the command words, and what stood in front of them. */
export interface Unwrapped {
  head: Word[]; // git push, after sudo -u x env A=1
  launchers: string[]; // ['sudo', 'env']
  assigns: { name: string; value: string }[]; // env and sudo NAME=value operands
  splitString: Word | null; // env -S 'str': a command line of its own (parse reads it); also head[0]
  directories: Word[]; // env -C DIR, sudo -D DIR: where the command runs, in the order they apply
}

/**
 * The command words after launchers: env [-i] [-u N] [-S str] [N=v], sudo [opts] [N=v], command,
 * builtin, exec, nohup, time [-p], nice [-n N], stdbuf [-oL..], timeout [opts] DUR, xargs [opts].
 * `find` is not a launcher: each of its -exec actions is a command line of its own (see parse),
 * so the head stays `find …`. A lookup runs no command: `command -v git`,
 * `sudo -l` give an empty head. A dynamic word where an option could stand ends the unwrapping.
 * env -S 'str': `splitString` is the string word, which also leads the head. env -C DIR and
 * sudo -D DIR: `directories`, where the command runs.
 */
export function unwrapLaunchers(argv: Word[]): Unwrapped {
  const result: Unwrapped = { head: [], launchers: [], assigns: [], splitString: null, directories: [] };
  let words = argv;
  for (;;) {
    const first = words[0];
    const name = first && !first.dynamic && first.value !== null ? basename(first.value) : null;
    const spec = name === null ? undefined : launchers[name];
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

/** Skips one launcher's options and operands; null when it runs no command (a lookup, -S, nothing left). */
function readLauncher(spec: LauncherSpec, words: Word[], result: Unwrapped): Word[] | null {
  let i = 0;
  for (; i < words.length; i += 1) {
    const word = words[i] as Word;
    const value = word.value;
    if (value === null || word.dynamic) {
      if (spec.assigns && readAssign(word) !== null) break;
      return words.slice(i);
    }
    if (value === '--') {
      i += 1;
      break;
    }
    if (value.startsWith('--') && value.length > 2) {
      const [option] = value.split('=', 1) as [string];
      const hasValue = value.includes('=');
      if (spec.lookupLong?.includes(option)) return null;
      if (option === spec.splitLong) {
        return split(
          hasValue ? { ...word, value: value.slice(option.length + 1) } : words[i + 1],
          words,
          i + (hasValue ? 1 : 2),
          result,
        );
      }
      if (option === spec.chdirLong) {
        const directory = hasValue ? { ...word, value: value.slice(option.length + 1) } : words[i + 1];
        if (directory !== undefined) result.directories.push(directory);
      }
      if (spec.valueLong?.includes(option) && !hasValue) i += 1;
      continue;
    }
    if (value === '-' && spec === launchers.env) continue; // env - is env -i
    if (!value.startsWith('-') || value === '-') break;
    if (spec.numericOption && /^-\d+$/.test(value)) continue;
    for (let j = 1; j < value.length; j += 1) {
      const char = value[j] as string;
      if (spec.lookupShort?.includes(char)) return null;
      const attached = value.slice(j + 1);
      if (char === spec.splitShort) {
        const splitWord = attached ? { ...word, value: attached } : words[i + 1];
        return split(splitWord, words, i + (attached ? 1 : 2), result);
      }
      if (spec.valueShort?.includes(char)) {
        if (char === spec.chdirShort) {
          const directory = attached ? { ...word, value: attached } : words[i + 1];
          if (directory !== undefined) result.directories.push(directory);
        }
        if (!attached) i += 1;
        break;
      }
      if (spec.attachedShort?.includes(char)) break;
    }
  }
  if (spec.assigns) {
    for (; i < words.length; i += 1) {
      const assign = readAssign(words[i] as Word);
      if (assign === null) break;
      result.assigns.push(assign);
    }
  }
  i += spec.operands ?? 0;
  return i < words.length ? words.slice(i) : null;
}

function split(splitWord: Word | undefined, words: Word[], restAt: number, result: Unwrapped): null {
  if (splitWord === undefined) return null;
  result.splitString = splitWord;
  // env -S 'git push' origin runs git push origin: the string leads the head (parse reads it as a line).
  result.head = [splitWord, ...words.slice(restAt)];
  return null;
}

function readAssign(word: Word): { name: string; value: string } | null {
  const source = word.value ?? word.text;
  const match = assignmentWord.exec(source);
  if (match === null) return null;
  return { name: match[1] as string, value: source.slice(match[0].length) };
}

function basename(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}
