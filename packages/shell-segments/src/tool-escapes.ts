import type { Placed } from './placed.ts';
import type { Word } from './types.ts';

/**
 * The command lines editors and stream tools hand to a shell (spec: every string a command line
 * hands to a shell is a nested command line): vim's `-c '!…'` / `+'!…'` / `--cmd '!…'`, ed's
 * `!…` lines in the script it reads, sed's `e command` (and `e` / `s///e`, which run text only
 * known at run time), `npm exec -c '…'` / `npx -c '…'`, and `watch … command`. A table of
 * readers by program name; `input` is the segment's input as runners.ts reads it.
 */
export type ToolReader = (args: Word[], input: ToolInput) => Placed[];

/**
 * A tool's standard input as runners.ts reads it: `input` is what it reads wherever it comes from
 * (unknown when from around the segment); `shown` only what the segment itself redirects or has
 * piped in (null otherwise: a terminal, or what the line does not show).
 */
export interface ToolInput {
  input: () => Placed | 'file' | null;
  shown: () => Placed | 'file' | null;
  /** The word a `< file` input names (null for any other input). */
  file: () => Word | null;
}

// rvim and rview are restricted (vim's -Z): no shell command, system() or interpreter runs.
const vims = ['vim', 'vi', 'view', 'vimdiff', 'gvim', 'gview', 'gvimdiff'];

export const toolReaders: Readonly<Record<string, ToolReader>> = {
  ...Object.fromEntries(vims.map((name) => [name, vimCommands])),
  // Out of Ex mode nvim reads an input that is not a terminal as the text it edits, not as keys.
  nvim: (args, input) => vimCommands(args, input, true),
  // ex is vim in Ex mode.
  ex: (args, input) => vimCommands(args, input, false, true),
  ed: edCommands,
  red: edCommands,
  sed: sedCommands,
  gsed: sedCommands,
  npm: (args) => npmCall(args, true),
  npx: (args) => npmCall(args, false),
  watch: watchCommand,
};

/** An ex command that runs a shell: `!cmd` (with `:` and `silent` before it) gives cmd; other shell routes are unknown. */
function exShellCommand(command: string): string | null | undefined {
  const bang = /^[\s:]*(?:sil(?:ent)?!?\s*)?!(.*)$/s.exec(command);
  if (bang !== null) return bang[1] as string;
  // :normal (also after :g/pat/) types its keys in Normal mode: `!` filters through a shell, `:`
  // types an ex command, Q / gQ enter Ex mode. Keys without them run nothing external.
  const normal = /(?<![A-Za-z])norm(?:a(?:l)?)?(?![a-z])!?(.*)$/s.exec(command);
  if (normal !== null && /[!:Q]/.test(normal[1] as string)) return null;
  // :r !cmd, :w !cmd, system(), :terminal, :exe "…": a shell runs text the gate does not read here.
  if (
    /\b(?:r(?:ead)?|w(?:rite)?)\s*!|system(?:list)?\s*\(|\bter(?:m(?:inal)?)?\b|(?<![\w.])exe(?:c(?:u(?:te?)?)?)?\b/.test(
      command,
    )
  )
    return null;
  // `|` ends most ex commands (not :normal's keys, :g's command or a shell's, read above): a `!`
  // after one runs a shell as at the start.
  const afterBar = /(?<!\\)\|[\s:]*(?:sil(?:ent)?!?\s*)?!(.*)$/s.exec(command);
  if (afterBar !== null) return afterBar[1] as string;
  return undefined;
}

/**
 * vim's `-c`, `+` and `--cmd` commands; in Ex mode (`-e`, `-E`, `-es`: vim reads its commands from
 * its input) each line of a literal script it reads too, and otherwise the keystrokes it reads
 * from an input that is not a terminal (`echo ':!cmd' | vim f`), unless `-` makes that input the
 * text it edits.
 */
function vimCommands(args: Word[], input: ToolInput, textInput = false, exStart = false): Placed[] {
  const texts: Placed[] = [];
  let exMode = exStart;
  let stdinText = textInput;
  for (let i = 0; i < args.length; i += 1) {
    const word = args[i] as Word;
    let command: Word | undefined;
    let prefix = 0;
    if (word.value === '-c' || word.value === '--cmd') {
      i += 1;
      command = args[i];
    } else if (word.value?.startsWith('+') && word.value.length > 1) {
      command = word;
      prefix = 1;
    } else if (word.value === '--') break;
    else if (word.value === '-') stdinText = true;
    else if (word.value !== null && /^-[A-Za-z]*Z/.test(word.value))
      return []; // restricted, as rvim
    else if (word.value !== null && /^-[A-Za-z]*[eE]/.test(word.value) && !word.value.startsWith('--'))
      exMode = true;
    if (command === undefined) continue;
    texts.push(...shellOf(command, prefix, exShellCommand));
  }
  if (exMode) return [...texts, ...exScript(input.input, input.file)];
  // Keys from around the segment are a terminal's, or what the line does not show: not read.
  return stdinText ? texts : [...texts, ...vimKeystrokes(input.shown, input.file)];
}

/**
 * Commands or keys vim reads from a `< file`: a file the gate cannot see, so unknown (not out of
 * reach by design as a script run later is: vim runs them now). /dev/null and a terminal hold none.
 */
function keysFile(file: () => Word | null): Placed[] {
  const word = file();
  if (word === null || (word.value !== null && /^\/dev\/(?:null|tty)$/.test(word.value))) return [];
  const message = `vim reads its commands from ${word.text}, which the gate cannot read`;
  return [{ form: 'word', start: word.start, end: word.end, text: null, message }];
}

/** An Ex script read from the input: each line an ex command; a script only known at run time, or in a file, is unknown. */
function exScript(input: () => Placed | 'file' | null, file: () => Word | null): Placed[] {
  const script = input();
  if (script === 'file') return keysFile(file);
  if (script === null) return [];
  if (script.text === null) return [script];
  return script.text.split('\n').flatMap((line) => exLine(script, line));
}

/** One ex command line of a literal input: the command it hands a shell, or why that is not read. */
function exLine(input: Placed, line: string): Placed[] {
  const found = exShellCommand(line);
  if (found === undefined) return [];
  if (found === null) return [unreadLine(input, `${line.trim()} runs a shell on text the gate cannot read`)];
  return [{ ...input, form: 'as-written', text: found }];
}

function unreadLine(input: Placed, message: string): Placed {
  return { ...input, form: 'word', text: null, message };
}

/**
 * The keystrokes vim runs from an input that is not a terminal: a `:` line typed in Normal mode is
 * an ex command. Any other keys may leave Normal mode (`i` inserts what follows as text), so a
 * later `:` line, and a `!`, `:` or `Q` among other keys (a filter, an Ex mode), is not read.
 */
function vimKeystrokes(input: () => Placed | 'file' | null, file: () => Word | null): Placed[] {
  const keys = input();
  if (keys === 'file') return keysFile(file);
  if (keys === null) return [];
  if (keys.text === null) return [keys];
  const texts: Placed[] = [];
  let normal = true;
  for (const line of keys.text.split('\n')) {
    const colon = /^\s*:/.test(line);
    if (colon && normal) texts.push(...exLine(keys, line));
    else if (colon ? exShellCommand(line) !== undefined : /[!:Q]/.test(line))
      texts.push(unreadLine(keys, `the keys ${line.trim()} may run a shell on text the gate cannot read`));
    if (!colon && line.trim() !== '') normal = false;
  }
  return texts;
}

/** The shell command inside one word (after `prefix` characters of its value), placed where it stands. */
export function shellOf(
  word: Word,
  prefix: number,
  read: (text: string) => string | null | undefined,
): Placed[] {
  if (word.value === null || word.dynamic)
    return [
      {
        form: 'word',
        start: word.start,
        end: word.end,
        text: null,
        message: `${word.text} is only known at run time`,
      },
    ];
  const found = read(word.value.slice(prefix));
  if (found === undefined) return [];
  if (found === null)
    return [
      {
        form: 'word',
        start: word.start,
        end: word.end,
        text: null,
        message: `${word.text} runs a shell on text the gate cannot read`,
      },
    ];
  return [placedIn(word, found)];
}

/** The command text within its word: its span in the source where it stands as written, else the word's. */
export function placedIn(word: Word, text: string): Placed {
  const at = word.text.lastIndexOf(text);
  if (at < 0 || text === '') return { form: 'as-written', start: word.start, end: word.end, text };
  return { form: 'as-written', start: word.start + at, end: word.start + at + text.length, text };
}

/** ed reads its commands from its input: each `!cmd` line runs cmd. A file or unknown input: out of reach. */
function edCommands(_args: Word[], { input }: ToolInput): Placed[] {
  const script = input();
  if (script === null || script === 'file') return [];
  if (script.text === null) return [script];
  const texts: Placed[] = [];
  for (const line of script.text.split('\n')) {
    const bang = /^\s*!(.*)$/.exec(line);
    if (bang !== null) texts.push({ ...script, form: 'as-written', text: bang[1] as string });
  }
  return texts;
}

/** sed's scripts: each -e value, --expression=, or the first operand when there is none. -f: out of reach. */
function sedCommands(args: Word[]): Placed[] {
  const scripts: Word[] = [];
  let operand: Word | undefined;
  for (let i = 0; i < args.length; i += 1) {
    const word = args[i] as Word;
    const value = word.value;
    if (value === '-e' || value === '--expression' || (value !== null && /^-[a-zA-Z]+e$/.test(value))) {
      i += 1;
      const next = args[i];
      if (next !== undefined) scripts.push(next);
    } else if (value?.startsWith('--expression=')) scripts.push({ ...word, value: value.slice(13) });
    else if (value === '-f' || value === '--file' || value === '-l' || value === '--line-length') i += 1;
    else if (operand === undefined && (value === null || !value.startsWith('-'))) operand = word;
  }
  if (scripts.length === 0 && operand !== undefined) scripts.push(operand);
  return scripts.flatMap((script) => shellOf(script, 0, sedShellCommand));
}

/** GNU sed's `e command` (to the end of its line); `e` alone and the `s///e` flag run text only known at run time. */
function sedShellCommand(script: string): string | null | undefined {
  const address = String.raw`(?:\d+|\$|/(?:[^/\\\n]|\\.)*/)(?:~\d+)?`;
  const command = new RegExp(
    String.raw`(?:^|[;\n{}])\s*(?:${address}(?:\s*,\s*${address})?)?\s*!?\s*e(?:[ \t]+([^\n]*))?(?:$|[\n;}])`,
    'm',
  );
  const found = command.exec(script);
  if (found?.[1] !== undefined && found[1].trim() !== '') return found[1];
  if (found !== null) return null;
  // s/a/b/e: the pattern space, after the substitution, is run as a command.
  if (/(?:^|[;\n{}])\s*s(.)(?:(?!\1)[^\\\n]|\\.)*\1(?:(?!\1)[^\\\n]|\\.)*\1[gpIiMm0-9]*e/m.test(script))
    return null;
  return undefined;
}

/** npm exec -c 'cmd' / npm x --call=cmd / npx -c 'cmd': the string npm hands to a shell. */
function npmCall(args: Word[], subcommand: boolean): Placed[] {
  let i = 0;
  if (subcommand) {
    while (i < args.length && args[i]?.value?.startsWith('-')) i += 1;
    if (args[i]?.value !== 'exec' && args[i]?.value !== 'x') return [];
    i += 1;
  }
  for (; i < args.length; i += 1) {
    const value = args[i]?.value;
    if (value === '--') break;
    if (value === '-c' || value === '--call') {
      const string = args[i + 1];
      return string === undefined ? [] : shellOf(string, 0, (text) => text).map(asWord(string));
    }
    if (value?.startsWith('--call=')) return shellOf(args[i] as Word, 7, (text) => text);
  }
  return [];
}

/** A whole word's text is put back as one word (shell-quoted), as bash -c's string is. */
function asWord(word: Word): (placed: Placed) => Placed {
  return (placed) =>
    placed.text === null ? placed : { ...placed, form: 'word', start: word.start, end: word.end };
}

/** procps watch [options] command…: the words joined by spaces, run by `sh -c` (with -x, exec'd as they are). */
function watchCommand(args: Word[]): Placed[] {
  let i = 0;
  for (; i < args.length; i += 1) {
    const value = args[i]?.value;
    if (value === null || value === undefined) break;
    if (value === '--') {
      i += 1;
      break;
    }
    if (!value.startsWith('-')) break;
    if (/^-[a-zA-Z]*[nq]$/.test(value) || value === '--interval' || value === '--equexit') i += 1;
  }
  const words = args.slice(i);
  const first = words[0];
  const last = words[words.length - 1];
  if (first === undefined || last === undefined) return [];
  const start = first.start;
  const dynamic = words.find((word) => word.value === null || word.dynamic);
  if (dynamic !== undefined)
    return [
      {
        form: 'word',
        start,
        end: last.end,
        text: null,
        message: `${dynamic.text} is only known at run time`,
      },
    ];
  return [{ form: 'word', start, end: last.end, text: words.map((word) => word.value as string).join(' ') }];
}
