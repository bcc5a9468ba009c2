import type { Placed } from './placed.ts';
import { placedIn, shellOf } from './tool-escapes.ts';
import type { Assign, Word } from './types.ts';

/**
 * The command lines git runs for its caller (spec step 8): the values of its command-valued config
 * keys given with `-c` (`core.editor`, `sequence.editor`, `core.pager`, `diff.external`,
 * `core.fsmonitor`, `core.sshCommand`, `credential.helper` with `!`, an alias with `!` that the
 * subcommand names), the same in its environment (`GIT_EDITOR`, `GIT_SEQUENCE_EDITOR`,
 * `GIT_PAGER`, `GIT_EXTERNAL_DIFF`, `GIT_SSH_COMMAND`, `EDITOR`, `VISUAL`), and the commands of
 * `rebase -x/--exec`, `submodule foreach`, `bisect run` and `filter-branch --*-filter`.
 * `core.hooksPath` (hooks from a folder of the caller's choosing) and `--config-env` of a
 * command-valued key run what the line does not show: only known at run time.
 */
export function gitCommandTexts(args: Word[], assigns: readonly Assign[]): Placed[] {
  const { configs, subcommand, rest } = readGlobals(args);
  if (subcommand === undefined) return [];
  const texts: Placed[] = [];
  for (const assign of assigns) {
    if (!gitCommandVariables.has(assign.name)) continue;
    const start = assign.start + assign.name.length + (assign.append ? 2 : 1);
    texts.push(
      assign.value === null || assign.indexed
        ? {
            form: 'word',
            start,
            end: assign.end,
            text: null,
            message: `${assign.text} is only known at run time`,
          }
        : { form: 'word', start, end: assign.end, text: assign.value },
    );
  }
  for (const config of configs) texts.push(...configCommand(config, subcommand.value));
  texts.push(...subcommandCommands(subcommand.value, rest));
  return texts;
}

/** The environment variables whose value git runs as a command line (exported ones reach it from earlier on the line). */
export const gitCommandVariables: ReadonlySet<string> = new Set([
  'GIT_EDITOR',
  'GIT_SEQUENCE_EDITOR',
  'GIT_PAGER',
  'GIT_EXTERNAL_DIFF',
  'GIT_SSH_COMMAND',
  'EDITOR',
  'VISUAL',
]);
const commandKeys = new Set([
  'core.editor',
  'sequence.editor',
  'core.pager',
  'diff.external',
  'core.fsmonitor',
  'core.sshcommand',
]);
/** git's global options that take their value as the next word (git.c, before the subcommand). */
export const gitGlobalsWithValue: ReadonlySet<string> = new Set([
  '-C',
  '-c',
  '--git-dir',
  '--work-tree',
  '--namespace',
  '--config-env',
  '--attr-source',
  '--shallow-file',
  '--super-prefix',
]);

/** git's global options as git reads them: the `-c` / `--config-env` words, the subcommand, its words. */
function readGlobals(args: Word[]): { configs: Word[]; subcommand: Word | undefined; rest: Word[] } {
  const configs: Word[] = [];
  let i = 0;
  for (; i < args.length; i += 1) {
    const word = args[i] as Word;
    if (word.value === null || word.dynamic || !word.value.startsWith('-')) break;
    if (gitGlobalsWithValue.has(word.value)) {
      const value = args[i + 1];
      if ((word.value === '-c' || word.value === '--config-env') && value !== undefined)
        configs.push(word.value === '-c' ? value : { ...value, value: null });
      i += 1;
    } else if (word.value.startsWith('--config-env=')) configs.push({ ...word, value: null });
  }
  const subcommand = args[i];
  if (subcommand === undefined || subcommand.value === null || subcommand.dynamic)
    return { configs, subcommand: undefined, rest: [] };
  return { configs, subcommand, rest: args.slice(i + 1) };
}

/** One `-c key=value`: its command when the key runs one; `--config-env` (value null) of such a key is unknown. */
function configCommand(config: Word, subcommand: string | null): Placed[] {
  const unknown = (why: string): Placed[] => [
    { form: 'word', start: config.start, end: config.end, text: null, message: `${config.text} ${why}` },
  ];
  const text = config.value ?? config.text.replace(/^--config-env=/, '');
  const equals = text.indexOf('=');
  const key = (equals < 0 ? text : text.slice(0, equals)).toLowerCase();
  const value = equals < 0 ? null : text.slice(equals + 1);
  if (key === 'core.hookspath') return unknown("runs hooks from a folder of the caller's choosing");
  const alias = key.startsWith('alias.') && key.slice(6) === subcommand?.toLowerCase();
  const helper = key === 'credential.helper';
  if (!commandKeys.has(key) && !alias && !helper) return [];
  if (config.value === null || config.dynamic || value === null) return unknown('is only known at run time');
  if (alias || helper) return value.startsWith('!') ? [placedIn(config, value.slice(1))] : [];
  if (key === 'core.fsmonitor' && /^(true|false|yes|no|on|off|1|0)?$/i.test(value)) return [];
  return [placedIn(config, value)];
}

const filters = /^--(env|tree|index|parent|msg|commit|tag-name)-filter$/;

/** rebase -x/--exec, submodule foreach, bisect run, filter-branch --*-filter: the commands they run. */
function subcommandCommands(subcommand: string | null, rest: Word[]): Placed[] {
  const texts: Placed[] = [];
  if (subcommand === 'rebase' || subcommand === 'filter-branch') {
    for (let i = 0; i < rest.length; i += 1) {
      const value = rest[i]?.value ?? null;
      if (value === '--') break;
      const separate =
        subcommand === 'rebase' ? value === '-x' || value === '--exec' : filters.test(value ?? '');
      if (separate && rest[i + 1] !== undefined) {
        i += 1;
        texts.push(...shellOf(rest[i] as Word, 0, (text) => text));
      } else if (subcommand === 'rebase' && value !== null && /^(--exec=|-x.)/.test(value))
        texts.push(...shellOf(rest[i] as Word, value.startsWith('-x') ? 2 : 7, (text) => text));
    }
    return texts;
  }
  const at = subcommand === 'submodule' ? indexAfter(rest, 'foreach', ['--recursive', '-q', '--quiet']) : -1;
  const run = subcommand === 'bisect' && rest[0]?.value === 'run' ? 1 : at;
  if (run < 0 || run >= rest.length) return [];
  const words = rest.slice(run);
  const dynamic = words.find((word) => word.value === null || word.dynamic);
  const start = (words[0] as Word).start;
  const end = (words[words.length - 1] as Word).end;
  if (dynamic !== undefined)
    return [{ form: 'word', start, end, text: null, message: `${dynamic.text} is only known at run time` }];
  // One word is a shell string; several are run as they stand (git quotes them for the shell).
  if (words.length === 1) return [{ form: 'word', start, end, text: words[0]?.value as string }];
  return [{ form: 'as-written', start, end, text: words.map((word) => word.text).join(' ') }];
}

/** The index after `name` (and the flags that may follow it) among the words, or -1. */
function indexAfter(words: Word[], name: string, flags: string[]): number {
  let i = 0;
  while (i < words.length && flags.includes(words[i]?.value ?? '')) i += 1;
  if (words[i]?.value !== name) return -1;
  i += 1;
  while (i < words.length && flags.includes(words[i]?.value ?? '')) i += 1;
  return i;
}
