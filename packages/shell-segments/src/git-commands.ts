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
    if (!gitCommandVariables.has(assign.name) || !gitMayRun(subcommand.value, assign.name)) continue;
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

/** What a command-valued variable or config key is to git: which of its subcommands can run it. */
type GitRuns = 'editor' | 'sequence-editor' | 'pager' | 'external-diff' | 'remote' | 'fsmonitor';

const variableRuns: Readonly<Record<string, GitRuns>> = {
  GIT_EDITOR: 'editor',
  EDITOR: 'editor',
  VISUAL: 'editor',
  GIT_SEQUENCE_EDITOR: 'sequence-editor',
  GIT_PAGER: 'pager',
  GIT_EXTERNAL_DIFF: 'external-diff',
  GIT_SSH_COMMAND: 'remote',
};

const keyRuns: Readonly<Record<string, GitRuns>> = {
  'core.editor': 'editor',
  'sequence.editor': 'sequence-editor',
  'core.pager': 'pager',
  'diff.external': 'external-diff',
  'core.fsmonitor': 'fsmonitor',
  'core.sshcommand': 'remote',
  'credential.helper': 'remote',
};

/** The environment variables whose value git runs as a command line (exported ones reach it from earlier on the line). */
export const gitCommandVariables: ReadonlySet<string> = new Set(Object.keys(variableRuns));

// What each of git's builtins can run (git 2.39, each option included: `log --ext-diff`, `add -p`'s
// hunk editor, `branch --edit-description`, `archive --remote`). A name not here (an alias, a
// script such as submodule or bisect, a git-foo on PATH) may run any of them.
const diff: GitRuns[] = ['external-diff'];
const remote: GitRuns[] = ['remote'];
const subcommandRuns: Readonly<Record<string, readonly GitRuns[]>> = {
  add: ['editor'],
  am: ['editor'],
  annotate: [],
  apply: [],
  archive: remote,
  blame: [],
  branch: ['editor'],
  'cat-file': [],
  'check-attr': [],
  'check-ignore': [],
  'check-ref-format': [],
  checkout: ['editor'],
  'cherry-pick': ['editor'],
  cherry: [],
  clean: [],
  clone: remote,
  commit: ['editor'],
  config: ['editor'],
  'count-objects': [],
  credential: remote,
  describe: [],
  diff,
  'diff-files': diff,
  'diff-index': diff,
  'diff-tree': diff,
  difftool: diff,
  fetch: remote,
  'fetch-pack': remote,
  'for-each-ref': [],
  'format-patch': diff,
  fsck: [],
  gc: [],
  grep: [],
  help: [],
  init: [],
  log: diff,
  'ls-files': [],
  'ls-remote': remote,
  'ls-tree': [],
  maintenance: remote,
  merge: ['editor'],
  'merge-base': [],
  mv: [],
  'name-rev': [],
  notes: ['editor'],
  pull: ['editor', 'sequence-editor', 'remote'],
  push: remote,
  'range-diff': diff,
  rebase: ['editor', 'sequence-editor'],
  reflog: diff,
  remote: remote,
  replace: ['editor'],
  reset: ['editor'],
  restore: ['editor'],
  'rev-list': [],
  'rev-parse': [],
  revert: ['editor'],
  rm: [],
  'send-pack': remote,
  shortlog: [],
  show: diff,
  'show-branch': [],
  'show-ref': [],
  'sparse-checkout': [],
  stash: ['editor', 'external-diff'],
  status: [],
  switch: [],
  'symbolic-ref': [],
  tag: ['editor'],
  'update-index': [],
  'update-ref': [],
  var: [],
  version: [],
  whatchanged: diff,
  worktree: [],
};

// The pager starts wherever git's output is a terminal (a line can give it one: `script -c`), and
// the fsmonitor wherever git reads the index: spec step 8 judges both for every subcommand.
const everywhere: ReadonlySet<GitRuns> = new Set(['pager', 'fsmonitor']);

/**
 * True when `git <subcommand>` can run the command a variable (`GIT_EDITOR`) or config key
 * (`core.editor`) names; a subcommand not known (null: an expansion) or not in the table may.
 */
export function gitMayRun(subcommand: string | null, setting: string): boolean {
  const runs = Object.hasOwn(variableRuns, setting) ? variableRuns[setting] : keyRuns[setting.toLowerCase()];
  if (runs === undefined || everywhere.has(runs) || subcommand === null) return true;
  const known = Object.hasOwn(subcommandRuns, subcommand) ? subcommandRuns[subcommand] : undefined;
  return known === undefined || known.includes(runs);
}

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

/** The command line one config key hands `git <subcommand>` to run: its text, why it is not known, or none (null). */
export type ConfigCommand = { text: string } | { unknown: string } | null;

/**
 * What git runs for `key=value` (`-c`, or GIT_CONFIG_KEY_n / GIT_CONFIG_VALUE_n): the value of a
 * command-valued key the subcommand can run, the `!` command of `alias.<subcommand>` or of
 * `credential.helper`; value null is one only known at run time. `core.hooksPath` runs hooks from
 * a folder of the caller's choosing: never known.
 */
export function configCommandOf(key: string, value: string | null, subcommand: string | null): ConfigCommand {
  const lower = key.toLowerCase();
  if (lower === 'core.hookspath') return { unknown: "runs hooks from a folder of the caller's choosing" };
  const alias = lower.startsWith('alias.') && lower.slice(6) === subcommand?.toLowerCase();
  if (!alias && (!Object.hasOwn(keyRuns, lower) || !gitMayRun(subcommand, lower))) return null;
  if (value === null) return { unknown: 'is only known at run time' };
  if (alias || lower === 'credential.helper') return value.startsWith('!') ? { text: value.slice(1) } : null;
  if (lower === 'core.fsmonitor' && /^(true|false|yes|no|on|off|1|0)?$/i.test(value)) return null;
  return { text: value };
}

/** One `-c key=value`: its command when the key runs one; `--config-env` (value null) of such a key is unknown. */
function configCommand(config: Word, subcommand: string | null): Placed[] {
  const text = config.value ?? config.text.replace(/^--config-env=/, '');
  const equals = text.indexOf('=');
  const key = equals < 0 ? text : text.slice(0, equals);
  const known = config.value !== null && !config.dynamic && equals >= 0;
  const command = configCommandOf(key, known ? text.slice(equals + 1) : null, subcommand);
  if (command === null) return [];
  if ('text' in command) return [placedIn(config, command.text)];
  return [
    {
      form: 'word',
      start: config.start,
      end: config.end,
      text: null,
      message: `${config.text} ${command.unknown}`,
    },
  ];
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
