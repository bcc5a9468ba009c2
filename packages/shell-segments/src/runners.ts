import { frameDepth } from './frame-depth.ts';
import { unwrapLaunchers } from './launchers.ts';
import { gitCommandTexts } from './git-commands.ts';
import { leafOf, ownedSubstitutions } from './statement-tree.ts';
import type { Placed } from './placed.ts';
import { shellOf, toolReaders } from './tool-escapes.ts';
import type { CommandLine, NestedKind, Redirect, Segment, TextForm, Word } from './types.ts';

/** A command line a segment runs, before it is parsed: its text, or why the text is not known. */
export type NestedText = { kind: NestedKind; form: TextForm; start: number; end: number } & (
  | { text: string }
  | { text: null; message: string } // only known at run time
);

const shells = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh']);
const findActions = new Set(['-exec', '-execdir', '-ok', '-okdir']);
const stdinFiles = new Set(['/dev/stdin', '/dev/fd/0', '/proc/self/fd/0']);

/**
 * The command lines a segment hands on, in the order they stand: the string of
 * bash|sh|zsh|dash|ksh -c 'str' (any flags: -lc, -ec, -o pipefail -c), eval 'a' 'b' (joined by
 * spaces, as bash does), env -S 'str' [operands] — after launchers —, the command of every
 * find -exec / -execdir / -ok / -okdir action, the script a shell reads from its input (a
 * heredoc, a here-string, a literal echo/printf/cat piped in, `bash -s`, `bash <(…)`,
 * `bash /dev/stdin`), what `source`/`.` reads from its input or a process substitution, the -c
 * string of `flock FILE -c 'str'` and `script -c 'str'`, BSD's `script file cmd …`, and the
 * remote command of `ssh [options] destination command …` (a line of the remote machine's shell:
 * a hook that judges this machine's state skips `remote-command`) and its `-o ProxyCommand=…` /
 * permitted `-o LocalCommand=…` (this machine's: `tool-command`), and the shell escapes of
 * editors and stream tools (`tool-command`: vim -c '!…', ed's `!`, sed's `e`, npm exec -c, watch;
 * tool-escapes.ts). `line` is the segment's own line.
 */
export function findNestedTexts(segment: Segment, line: CommandLine): NestedText[] {
  const unwrapped = unwrapLaunchers(segment.argv);
  const { head, splitString } = unwrapped;
  if (splitString !== null) return [splitStringText(segment, splitString, head.slice(1))];
  // flock FILE -c 'str', script -c 'str': the tool hands the string to a shell, as bash -c does.
  if (unwrapped.shellString !== null) return [attachedShellString(segment, unwrapped.shellString)];
  // The launcher grammar reads util-linux's script, which runs no words of its own; BSD's does.
  if (head.length === 0 && unwrapped.launchers[unwrapped.launchers.length - 1] === 'script')
    return bsdScriptTexts(segment.argv, line.source);
  const command = head[0];
  if (command === undefined || command.value === null || command.dynamic) return [];
  const name = command.value.slice(command.value.lastIndexOf('/') + 1);
  const args = head.slice(1);
  if (name === 'find') return findExecTexts(args, line.source);
  if (name === 'eval') {
    if (args[0]?.value === '--') args.shift();
    return args.length > 0 ? [{ kind: 'eval', ...joinedText(args) }] : [];
  }
  if (name === 'source' || name === '.') return sourcedTexts(segment, args, line);
  if (name === 'ssh') return sshTexts(args);
  if (name === 'git' || name === 'git.exe')
    return gitCommandTexts(args, segment.assigns).map((placed) => ({ kind: 'tool-command', ...placed }));
  const tool = Object.hasOwn(toolReaders, name) ? toolReaders[name] : undefined;
  if (tool !== undefined)
    return tool(args, {
      input: () => inputOf(segment, line),
      shown: () => shownInputOf(segment, line),
      file: () => inputFileOf(segment),
    }).map((placed) => ({ kind: 'tool-command', ...placed }));
  if (!shells.has(name)) return [];
  const call = readShellArgs(args);
  switch (call.kind) {
    case 'string':
      return [{ kind: 'shell-string', ...joinedText([call.word]) }];
    case 'stdin': {
      const input = inputOf(segment, line);
      return input === null || input === 'file' ? [] : [{ kind: 'shell-input', ...input }];
    }
    case 'file': {
      const script = scriptFileText(segment, call.word, line);
      return script === null ? [] : [{ kind: 'shell-input', ...script }];
    }
    case 'none':
      return [];
  }
}

/** The text of `words` joined by spaces, spanning them, as one word; unknown when one of them is only known at run time. */
function joinedText(words: Word[]): Placed {
  const start = (words[0] as Word).start;
  const end = (words[words.length - 1] as Word).end;
  const dynamic = words.find(isDynamic);
  if (dynamic) return { form: 'word', start, end, text: null, message: runTimeMessage(dynamic) };
  return { form: 'word', start, end, text: words.map((word) => word.value as string).join(' ') };
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
  const placed = { kind: 'split-string', form: 'word', start, end } as const;
  const dynamic = [string, ...operands.filter((word) => word.value === null)].find(isDynamic);
  if (dynamic) return { ...placed, text: null, message: runTimeMessage(dynamic) };
  const quoted = operands.map((word) => ` '${(word.value as string).replace(/'/g, `'\\''`)}'`);
  return { ...placed, text: (string.value as string) + quoted.join('') };
}

/** The -c string of flock or script: its own word, or the rest of an option word (`-qc'make check'`, `--command=…`), which stays. */
function attachedShellString(segment: Segment, string: Word): NestedText {
  if (segment.argv.includes(string)) return { kind: 'shell-string', ...joinedText([string]) };
  const prefix = /^(?:-[A-Za-z]*c|--[a-z-]+=)/.exec(string.text);
  const start = string.start + (prefix?.[0].length ?? 0);
  const placed = { kind: 'shell-string', form: 'word', start, end: string.end } as const;
  if (prefix === null || isDynamic(string)) return { ...placed, text: null, message: runTimeMessage(string) };
  return { ...placed, text: string.value as string };
}

function isDynamic(word: Word): boolean {
  return word.value === null || word.dynamic;
}

function runTimeMessage(word: Word): string {
  return `the command string ${word.text} is only known at run time`;
}

/** How a shell's arguments say where its script comes from. */
type ShellCall =
  | { kind: 'string'; word: Word } // -c 'str' (the word may be an expansion)
  | { kind: 'stdin' } // no script operand, or -s: the script is the shell's input
  | { kind: 'file'; word: Word } // a script operand
  | { kind: 'none' }; // -c with no string; an expansion where an option could stand

/** The shell's flags read as bash reads them: -c takes the first operand as the string, -s reads the input. */
function readShellArgs(words: Word[]): ShellCall {
  let sawC = false;
  let sawS = false;
  for (let i = 0; i < words.length; i += 1) {
    const word = words[i] as Word;
    const value = word.value;
    // An expansion where an option could stand (bash $flags -c 'git push'): the string may be
    // anything once the expansion is known, so a -c anywhere after it makes the call dynamic.
    if (value === null) {
      if (sawC || hasLaterC(words, i)) return { kind: 'string', word };
      // bash <(…): a process substitution is a file name, never an option.
      return word.text.startsWith('<(') ? operandCall(word, false, sawS) : { kind: 'none' };
    }
    if (value === '--' || value === '-') return operandCall(words[i + 1], sawC, sawS);
    if (value.startsWith('--')) {
      if (value === '--rcfile' || value === '--init-file') i += 1;
      continue;
    }
    if (/^[-+][A-Za-z]+$/.test(value)) {
      if (value.startsWith('-') && value.includes('c')) sawC = true;
      if (value.startsWith('-') && value.includes('s')) sawS = true;
      // -o pipefail, +O extglob: the option name is the next word.
      if (/[oO]/.test(value.slice(1))) i += 1;
      continue;
    }
    return operandCall(word, sawC, sawS);
  }
  return sawC ? { kind: 'none' } : { kind: 'stdin' };
}

function operandCall(word: Word | undefined, sawC: boolean, sawS: boolean): ShellCall {
  if (sawC) return word === undefined ? { kind: 'none' } : { kind: 'string', word };
  if (sawS || word === undefined) return { kind: 'stdin' };
  return { kind: 'file', word };
}

function hasLaterC(words: Word[], from: number): boolean {
  return words
    .slice(from + 1)
    .some((word) => word.value !== null && /^-[A-Za-z]*c[A-Za-z]*$/.test(word.value));
}

/**
 * A script file a shell or `source` reads: the segment's own input for /dev/stdin and its
 * aliases, a process substitution's output (`<(echo 'git push')`); null for any other file,
 * which is out of reach (a script written earlier and run now is not read).
 */
function scriptFileText(segment: Segment, word: Word, line: CommandLine): Placed | null {
  if (word.value !== null && stdinFiles.has(word.value)) {
    const input = inputOf(segment, line);
    return input === 'file' ? null : input;
  }
  if (word.value !== null) return null;
  const substitution = ownedSubstitutions(leafOf(line, segment))
    .map((list) => list.frame)
    .find(
      (frame) =>
        frame.kind === 'process-substitution' &&
        frame.direction === '<' &&
        frame.start === word.start &&
        frame.end === word.end,
    );
  if (substitution === undefined) return null;
  const inside = line.segments.filter((each) => each.context.at(-1) === substitution);
  const [producer] = inside;
  if (
    producer === undefined ||
    inside.length > 1 ||
    line.segments.some((each) => each.context.includes(substitution) && !inside.includes(each))
  )
    return dynamicAt(word, `the script is the output of ${word.text}`);
  return outputOf(producer);
}

/** `source file` / `. file`: only its input or a process substitution is read. */
function sourcedTexts(segment: Segment, args: Word[], line: CommandLine): NestedText[] {
  const operands = args[0]?.value === '--' ? args.slice(1) : args;
  const file = operands[0];
  if (file === undefined) return [];
  const script = scriptFileText(segment, file, line);
  return script === null ? [] : [{ kind: 'sourced', ...script }];
}

/**
 * BSD's `script [opts] file cmd args…`: the words after the typescript file run as they stand.
 * (`script -c 'cmd'`, util-linux's, is the launcher grammar's shellString.) The script word is the
 * first one named script: the launchers in front of it take no such value in practice.
 */
function bsdScriptTexts(argv: Word[], source: string): NestedText[] {
  const at = argv.findIndex(
    (word) => !word.dynamic && word.value !== null && /(^|\/)script$/.test(word.value),
  );
  const args = argv.slice(at + 1);
  const operands: Word[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const word = args[i] as Word;
    const value = word.value;
    if (value === null || operands.length > 0 || !value.startsWith('-') || value === '-') {
      operands.push(word);
      continue;
    }
    if (value === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    // A -c the launcher grammar did not take (script -c 'x' file extra) is an error: nothing runs.
    if (/^--command(=|$)/.test(value) || /^-[A-Za-z]*c/.test(value)) return [];
    const long = /^--([a-z-]+)(=.*)?$/.exec(value);
    if (long !== null) {
      if (long[2] === undefined && scriptLongValues.has(long[1] as string)) i += 1;
      continue;
    }
    for (let letter = 1; letter < value.length; letter += 1) {
      if (scriptShortValues.includes(value.charAt(letter))) {
        // -t takes a number as its own word only in BSD's script; util-linux's -t[file] is attached.
        const next = args[i + 1]?.value ?? '';
        if (value.slice(letter + 1) === '' && (value.charAt(letter) !== 't' || /^\d+$/.test(next))) i += 1;
        break;
      }
    }
  }
  // BSD: script [file [command …]]; the first operand is the typescript file.
  const words = operands.slice(1);
  if (words.length === 0) return [];
  const start = (words[0] as Word).start;
  const end = (words[words.length - 1] as Word).end;
  return [{ kind: 'script-command', form: 'as-written', start, end, text: source.slice(start, end) }];
}

const scriptShortValues = 'EIOBTmoFt';
const scriptLongValues = new Set([
  'echo',
  'log-in',
  'log-out',
  'log-io',
  'log-timing',
  'logging-format',
  'output-limit',
]);

/**
 * What a segment reads on its standard input, as far as the line shows it: a literal text (a
 * heredoc, a here-string, a literal echo/printf/cat piped in), why it is not known, 'file' for a
 * `< file` (out of reach), or null for the call's own input (nothing, for the top line's main list).
 */
function inputOf(segment: Segment, line: CommandLine): Placed | 'file' | null {
  const redirected = redirectedInput(segment);
  if (redirected !== null) return redirected;
  const leaf = leafOf(line, segment);
  if (leaf?.parent.kind === 'pipeline') {
    const stages = leaf.parent.stages;
    const producer = stages[stages.indexOf(leaf) - 1];
    if (producer !== undefined) {
      if (producer.kind !== 'simple')
        return dynamicAt(segment, 'its input is the output of a compound command');
      return outputOf(producer.segment);
    }
  }
  // Inside a compound, or in a nested line, the input comes from around it: a redirection or a
  // pipe the segment does not show (`{ bash; } <<< 'git push'`, `echo … | bash -c bash`).
  if (frameDepth(segment) > 0 || line.runner !== null)
    return dynamicAt(segment, 'its input comes from outside the segment');
  return null;
}

/** The segment's input where the segment itself shows it (a redirection, a pipe into it); null where it comes from around it. */
function shownInputOf(segment: Segment, line: CommandLine): Placed | 'file' | null {
  const leaf = leafOf(line, segment);
  const piped = leaf?.parent.kind === 'pipeline' && leaf.parent.stages.indexOf(leaf) > 0;
  return piped || segment.redirects.some(isInputRedirect) ? inputOf(segment, line) : null;
}

/** The file a segment's input is redirected from with `<` (its last input redirection), or null. */
function inputFileOf(segment: Segment): Word | null {
  const redirect = segment.redirects.filter(isInputRedirect).at(-1);
  return redirect?.op === '<' ? redirect.target : null;
}

/** The segment's last redirection of its standard input, read. */
function redirectedInput(segment: Segment): Placed | 'file' | null {
  const redirect = segment.redirects.filter(isInputRedirect).at(-1);
  if (redirect === undefined) return null;
  const { op, target, heredoc } = redirect;
  if (heredoc !== null) {
    const body = op === '<<-' ? heredoc.body.replace(/^\t+/gm, '') : heredoc.body;
    const placed = { start: heredoc.start, end: heredoc.end };
    if (heredoc.quoted) return { ...placed, form: 'quoted-heredoc', text: body };
    const text = expandHeredoc(body);
    return text === null
      ? {
          ...placed,
          form: 'heredoc',
          text: null,
          message: 'the heredoc holds an expansion, known only at run time',
        }
      : { ...placed, form: 'heredoc', text };
  }
  if (op === '<<<') {
    if (isDynamic(target))
      return dynamicAt(target, `the here-string ${target.text} is only known at run time`);
    return { form: 'here-string', start: target.start, end: target.end, text: `${target.value as string}\n` };
  }
  if (op === '<') return 'file';
  return dynamicAt(target, `its input is ${op}${target.text}`);
}

function isOutputRedirect(redirect: Redirect): boolean {
  if (redirect.op === '&>' || redirect.op === '&>>') return true;
  return (redirect.fd === null || redirect.fd === '1') && ['>', '>>', '>|', '>&', '<>'].includes(redirect.op);
}

function isInputRedirect(redirect: Redirect): boolean {
  return (
    (redirect.fd === null || redirect.fd === '0') &&
    ['<', '<<', '<<-', '<<<', '<&', '<>'].includes(redirect.op)
  );
}

/**
 * An unquoted heredoc body as the shell reads it: `\$` `` \` `` `\\` stand for themselves, a
 * backslash-newline joins lines, any other backslash stays; null when an unescaped `$` or
 * backtick makes it an expansion.
 */
function expandHeredoc(body: string): string | null {
  let dynamic = false;
  const text = body.replace(/\\([\s\S])|[$`]/g, (whole, escaped?: string) => {
    if (escaped === undefined) {
      dynamic = true;
      return whole;
    }
    if (escaped === '\n') return '';
    return '$`\\'.includes(escaped) ? escaped : whole;
  });
  return dynamic ? null : text;
}

/**
 * What a producer segment writes to its standard output when the line shows it literally: an
 * `echo` (no backslash in its text: `-e` or xpg_echo would read escapes), a `printf` whose
 * format holds only `%s`, `%%`, `\n`, `\t` and `\\`, or a `cat` of its own literal input.
 */
function outputOf(producer: Segment): Placed {
  const unknown = (why: string): Placed => dynamicAt(producer, why);
  if (producer.redirects.some(isOutputRedirect))
    return unknown(`${producer.text} sends its output elsewhere`);
  const [command, ...words] = producer.argv;
  const name = command?.value ?? null;
  if (command === undefined || command.dynamic || words.some(isDynamic))
    return unknown(`the text ${producer.text} writes is only known at run time`);
  const values = words.map((word) => word.value as string);
  const after = command.end;
  const end = (words[words.length - 1] ?? command).end;
  if (name === 'echo') {
    let at = 0;
    while (/^-[neE]+$/.test(values[at] ?? '')) at += 1;
    const text =
      values.slice(at).join(' ') + (values.slice(0, at).some((flag) => flag.includes('n')) ? '' : '\n');
    if (text.includes('\\')) return unknown('echo may read the escapes in its text');
    return { form: 'echo-operands', start: after, end, text };
  }
  if (name === 'printf') {
    const operands = values[0] === '--' ? values.slice(1) : values;
    const text = printfText(operands);
    return text === null
      ? unknown('printf formats its text')
      : { form: 'printf-operands', start: after, end, text };
  }
  if (name === 'cat' && values.every((value) => value === '-')) {
    const input = redirectedInput(producer);
    if (input !== null && input !== 'file') return input;
  }
  return unknown(`what ${producer.text} writes is only known at run time`);
}

/** printf's output for a format of `%s`, `%%`, `\n`, `\t`, `\\` and plain text, reused while arguments remain; null otherwise. */
function printfText(operands: string[]): string | null {
  const [format, ...args] = operands;
  if (format === undefined || format.startsWith('-')) return null;
  const pieces: (string | null)[] = [];
  const scan = /%%|%s|\\[nt\\]|[%\\]|[^%\\]+/g;
  for (const match of format.matchAll(scan)) {
    const piece = match[0];
    if (piece === '%%') pieces.push('%');
    else if (piece === '%s') pieces.push(null);
    else if (piece === '\\n') pieces.push('\n');
    else if (piece === '\\t') pieces.push('\t');
    else if (piece === '\\\\') pieces.push('\\');
    else if (piece === '%' || piece === '\\') return null;
    else pieces.push(piece);
  }
  const slots = pieces.filter((piece) => piece === null).length;
  let text = '';
  let next = 0;
  do {
    for (const piece of pieces) text += piece ?? args[next++] ?? '';
  } while (slots > 0 && next < args.length);
  return text;
}

function dynamicAt(at: { start: number; end: number }, message: string): Placed {
  return { form: 'word', start: at.start, end: at.end, text: null, message };
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
      texts.push({ kind: 'find-exec', form: 'as-written', start, end, text: source.slice(start, end) });
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

/** ssh's options that take a value (OpenSSH 9): `-p 22`, `-p22`, `-o Opt=v`, `-oOpt=v`. */
const sshValueOptions = new Set('BbcDEeFIiJLlmOoPpQRSWw'.split(''));
/** ssh's flags after which it connects nowhere: a config dump (-G), a version (-V), a control command (-O). */
const sshNoConnection = new Set(['G', 'V', 'O']);
/** ssh's flags after which no remote command runs, though it connects: a subsystem (-s), none (-N). */
const sshNoCommand = new Set(['s', 'N']);

/**
 * `ssh [options] destination command …`: the command words joined by spaces, as the remote shell
 * gets them (ssh sends one string), and the `-o ProxyCommand=…` / `-o LocalCommand=…` (the latter
 * with `-o PermitLocalCommand=yes`) that ssh runs on this machine through the user's shell
 * (`tool-command`). Options are read as ssh reads them: a cluster of flags, the last of which may
 * take the value (attached or the next word); `--` ends them; the first operand is the destination.
 * A `-F` file, like ~/.ssh/config, is not read: what it runs is out of reach, as a Makefile's recipe is.
 */
function sshTexts(args: Word[]): NestedText[] {
  const options: SshOption[] = [];
  let i = 0;
  let command = true;
  for (; i < args.length; i += 1) {
    const word = args[i] as Word;
    // An expansion ("$HOST") is read as the destination: an option in it would be ssh's own business.
    if (word.value === null) break;
    if (word.value === '--') {
      i += 1;
      break;
    }
    if (!word.value.startsWith('-') || word.value === '-') break;
    const flags = word.value.slice(1);
    for (let k = 0; k < flags.length; k += 1) {
      const flag = flags[k] as string;
      if (sshNoConnection.has(flag)) return [];
      if (sshNoCommand.has(flag)) command = false;
      if (!sshValueOptions.has(flag)) continue;
      const attached = k < flags.length - 1;
      if (!attached) i += 1; // the value is the next word
      const value = attached ? word : args[i];
      if (flag === 'o' && value !== undefined) options.push({ word: value, prefix: attached ? k + 2 : 0 });
      break;
    }
  }
  const remote = args.slice(i + 1); // after the destination
  const texts = sshLocalCommands(options);
  if (command && remote.length > 0) texts.push({ kind: 'remote-command', ...joinedText(remote) });
  return texts;
}

/** One `-o` value: its word, and how many characters of the word's value come before it (`-oX=y`: 2). */
interface SshOption {
  word: Word;
  prefix: number;
}

/** ssh_config's commands run here; of each keyword the first value given counts, as ssh reads them. */
const sshLocalKeys = ['proxycommand', 'localcommand'];

/** The ProxyCommand and permitted LocalCommand of `-o` options, each a line of this machine's shell. */
function sshLocalCommands(options: SshOption[]): NestedText[] {
  const first = new Map<string, { option: SshOption; value: string | null }>();
  for (const option of options) {
    const { word, prefix } = option;
    if (word.value === null || word.dynamic) {
      // -o "ProxyCommand=$CMD": a command only known at run time.
      const key = /(ProxyCommand|LocalCommand)\b/i.exec(word.text)?.[1]?.toLowerCase();
      if (key !== undefined && !first.has(key)) first.set(key, { option, value: null });
      continue;
    }
    const parsed = /^\s*([A-Za-z]+)(?:\s*=\s*|\s+)(.*)$/s.exec(word.value.slice(prefix));
    const key = parsed?.[1]?.toLowerCase();
    if (key !== undefined && !first.has(key)) first.set(key, { option, value: parsed?.[2] ?? '' });
  }
  const permitted = /^yes$/i.test(first.get('permitlocalcommand')?.value ?? '');
  return sshLocalKeys.flatMap((key) => {
    const found = first.get(key);
    if (found === undefined || (key === 'localcommand' && !permitted)) return [];
    if (found.value !== null && /^\s*none\s*$/i.test(found.value)) return [];
    const { word, prefix } = found.option;
    const text = found.value;
    const placed = shellOf(word, prefix, () => text);
    return placed.map((each) => ({ kind: 'tool-command' as const, ...each }));
  });
}
