import { type HeadWord, parseGitGlobals, type RepositoryVariables } from './git-global-options.ts';
import { builtinCommands } from './git-long-options.ts';
import { judgeGh } from './gh-writes.ts';
import type { AliasValue } from './git-aliases.ts';
import { historyAndRefSubcommands, judgeStash, judgeWorktree } from './history-and-refs.ts';
import type { PathspecBase } from './pathspec.ts';
import { type ArgToken, isNegated, isOption, optionSpecOf, scanArgs } from './subcommand-options.ts';
import {
  hasDynamic,
  lastFlag,
  type Subcommand,
  type SubcommandSetting,
  type Verdictish,
  wholeTreeOperand,
} from './subcommand-rule.ts';
import type { HeadJudgement } from './write-kind.ts';

export const pass: HeadJudgement = { kind: 'pass' };

/** Where the command runs, for what resolves against it: git's pathspecs, after its `-C` options. */
export interface HeadPlace {
  pathspecBase: (directories: readonly HeadWord[]) => PathspecBase | null;
  variables?: RepositoryVariables; // GIT_DIR / GIT_WORK_TREE assigned in front of git
  alias?: (name: string, directories: readonly HeadWord[]) => AliasValue; // alias.<name> from the config files git reads there
}

const nowhere: HeadPlace = { pathspecBase: () => null };

/**
 * Judges the head words of one simple command (the words after launchers and assignments):
 * `git` (any path, `git.exe`, the dashed `git-push` form) with its global options skipped as git
 * skips them, or `gh pr merge`. `assignNames` are the names assigned in front of it (`GH_REPO=`);
 * `place` says where pathspecs resolve (without it, by their spelling alone).
 */
export function judgeHead(
  words: HeadWord[],
  assignNames: readonly string[] = [],
  place: HeadPlace = nowhere,
): HeadJudgement {
  const program = words[0];
  if (program === undefined || program === null) return pass;
  const name = baseName(program);
  if (name === 'git') return judgeGit(words.slice(1), assignNames, place);
  if (name.startsWith('git-')) {
    const base = place.pathspecBase([]);
    return judgeSubcommand(name.slice(4), words.slice(1), {
      directories: [],
      configs: [],
      configured: assignNames.some((assign) => configVariables.test(assign)),
      base,
      globs: 'glob',
    });
  }
  if (name === 'gh') return judgeGh(words.slice(1), assignNames);
  return pass;
}

function baseName(program: string): string {
  const last = program.split(/[\\/]/).pop() ?? program;
  return last.toLowerCase().endsWith('.exe') ? last.slice(0, -4) : last;
}

// Variables through which the environment hands git config: any of them may define an alias.
const configVariables =
  /^(GIT_CONFIG_COUNT|GIT_CONFIG_PARAMETERS|GIT_CONFIG|GIT_CONFIG_GLOBAL|GIT_CONFIG_SYSTEM|GIT_CONFIG_KEY_\d+|GIT_CONFIG_VALUE_\d+)$/;

function judgeGit(
  words: HeadWord[],
  assignNames: readonly string[],
  place: HeadPlace,
  expansions = 0,
): HeadJudgement {
  const globals = parseGitGlobals(words, place.variables);
  if (globals.kind === 'no-subcommand') return pass;
  if (globals.kind === 'dynamic-option')
    return { kind: 'unknown', why: 'an expansion stands where git reads its options', directories: [] };
  const { subcommand, args, directories, configs, globs } = globals;
  if (subcommand === null) return { kind: 'unknown', why: 'the git subcommand is an expansion', directories };
  const configured = assignNames.some((name) => configVariables.test(name));
  const judged = judgeSubcommand(subcommand, args, {
    directories,
    configs,
    configured,
    base: place.pathspecBase(directories),
    globs,
  });
  // An alias never hides a git command (`-c alias.commit=status commit` still commits), but config
  // can turn another word into one: `-c alias.x=commit x`, the config files, GIT_CONFIG_COUNT=….
  if (judged.kind !== 'pass' || builtinCommands.has(subcommand)) return judged;
  const unknown = (why: string): HeadJudgement => ({ kind: 'unknown', why, directories });
  if (configs.some((config) => config === null || includesConfig(config)))
    return unknown(`a \`-c\` option may make \`${subcommand}\` an alias`);
  const onLine = configs.filter((config) => isAliasOf(config as string, subcommand)).at(-1);
  const alias = onLine === undefined ? place.alias?.(subcommand, directories) : aliasValue(onLine);
  if (alias === null) return unknown(`the alias \`${subcommand}\` cannot be read`);
  if (alias !== undefined) {
    // `!cmd` runs a shell: a `-c` one is a nested line of the runner table, a file's is judged here.
    if (alias.startsWith('!'))
      return onLine === undefined ? { kind: 'alias-shell', text: alias.slice(1), directories } : judged;
    const expanded = alias.trim().split(/\s+/);
    if (/["'\\]/.test(alias) || expansions >= maxAliasExpansions)
      return unknown(`the alias \`${subcommand}\` = \`${alias}\` is more than the gate reads`);
    const before = words.slice(0, words.length - args.length - 1);
    return judgeGit([...before, ...expanded, ...args], assignNames, place, expansions + 1);
  }
  if (configured) return unknown(`config handed in the environment may make \`${subcommand}\` an alias`);
  return judged;
}

// How many aliases in a row the gate expands (git refuses a loop; the bound ends one here).
const maxAliasExpansions = 8;

/** True when a `-c` key=value is alias.<subcommand>. */
function isAliasOf(config: string, subcommand: string): boolean {
  return (config.split('=', 1)[0] ?? '').toLowerCase() === `alias.${subcommand.toLowerCase()}`;
}

function aliasValue(config: HeadWord): AliasValue {
  if (config === null) return null;
  const equals = config.indexOf('=');
  return equals < 0 ? null : config.slice(equals + 1);
}

/** True when a `-c` key=value pulls in config files (which may define aliases). */
function includesConfig(config: string): boolean {
  const key = (config.split('=', 1)[0] ?? '').toLowerCase();
  return key === 'include.path' || key.startsWith('includeif.');
}

// The short options that take a value, per subcommand; the long ones come from git's own lists.
const subcommands: Record<string, Subcommand> = {
  commit: {
    options: optionSpecOf('commit', 'mFCct'),
    // `--short`, `--porcelain` and `--long` imply `--dry-run`.
    rule: (tokens) =>
      lastFlag(tokens, ['--dry-run', '--short', '--porcelain', '--long']) ? null : { write: 'commit' },
  },
  push: {
    options: optionSpecOf('push', 'o'),
    rule: (tokens) => (lastFlag(tokens, ['-n', '--dry-run']) ? null : { write: 'push' }),
  },
  merge: {
    options: optionSpecOf('merge', 'mFsX'),
    rule: (tokens) =>
      tokens.some((token) => isOption(token, '--abort', '--continue', '--quit')) ? null : { write: 'merge' },
  },
  reset: {
    options: optionSpecOf('reset', ''),
    rule: (tokens) => {
      // The mode options share one setting: the last one given wins (`--hard --soft` is soft), and
      // a negated one (`--no-hard`) clears it.
      let hard = false;
      for (const token of tokens) {
        if (isOption(token, '--hard')) hard = true;
        else if (isOption(token, '--soft', '--mixed', '--keep', '--merge')) hard = false;
        else if (isNegated(token, '--hard', '--soft', '--mixed', '--keep', '--merge')) hard = false;
      }
      if (hard) return { write: 'reset-hard' };
      return hasDynamic(tokens) ? { unknown: 'an expansion could be `--hard`' } : null;
    },
  },
  clean: {
    options: optionSpecOf('clean', 'e'),
    rule: (tokens, { configs, configured }) => {
      if (lastFlag(tokens, ['-n', '--dry-run']) || lastFlag(tokens, ['-i', '--interactive'])) return null;
      const forced = lastFlag(tokens, ['-f', '--force']) || configs.some(isRequireForceOff);
      if (forced) return { write: 'clean-force' };
      if (hasDynamic(tokens)) return { unknown: 'an expansion could be `-f`' };
      // `-c clean.requireForce=false` deletes without -f; config only known at run time may say so.
      return configured || configs.some((config) => config === null)
        ? { unknown: 'config handed on the line may turn clean.requireForce off' }
        : null;
    },
  },
  checkout: {
    options: optionSpecOf('checkout', 'bB'),
    rule: (tokens, setting) => judgeDiscard(tokens, ['-f', '--force'], wholeTreeOperand(tokens, setting)),
  },
  switch: {
    options: optionSpecOf('switch', 'cC'),
    rule: (tokens) => judgeDiscard(tokens, ['-f', '--force', '--discard-changes'], null),
  },
  restore: {
    options: optionSpecOf('restore', 's'),
    rule: (tokens, setting) => {
      const staged = lastFlag(tokens, ['-S', '--staged']);
      const worktree = lastFlag(tokens, ['-W', '--worktree']);
      // `--staged` alone restores the index only; the work tree is left as it is.
      const touchesWorkTree = worktree || !staged;
      if (!touchesWorkTree) return null;
      const whole = wholeTreeOperand(tokens, setting);
      if (whole !== null) return whole;
      return hasDynamic(tokens) ? { unknown: 'an expansion could be a whole-tree pathspec' } : null;
    },
  },
  ...historyAndRefSubcommands,
};

function judgeSubcommand(subcommand: string, args: HeadWord[], setting: SubcommandSetting): HeadJudgement {
  const { directories } = setting;
  if (subcommand === 'init') return { kind: 'git-init' };
  const outcome = subcommandOutcome(subcommand, args, setting);
  if (outcome === null) return pass;
  if ('unknown' in outcome)
    return { kind: 'unknown', why: `git ${subcommand}: ${outcome.unknown}`, directories };
  return { kind: 'write', write: outcome.write, directories, retargeted: false };
}

/** What one subcommand's rule says of its arguments; null for a read or an allowed form. */
function subcommandOutcome(subcommand: string, args: HeadWord[], setting: SubcommandSetting): Verdictish {
  if (subcommand === 'stash') return judgeStash(args);
  if (subcommand === 'worktree') return judgeWorktree(args);
  const known = Object.hasOwn(subcommands, subcommand) ? subcommands[subcommand] : undefined;
  if (known === undefined) return null;
  const tokens = scanArgs(args, known.options);
  // `-h`, `--help` or an ambiguous prefix anywhere: git prints usage and exits before any write.
  if (tokens.some((token) => token.kind === 'usage')) return null;
  return known.rule(tokens, setting);
}

/** checkout / switch: a forced switch, or (checkout) a whole-tree pathspec, discards the work tree. */
function judgeDiscard(tokens: ArgToken[], force: string[], wholeTree: Verdictish): Verdictish {
  if (lastFlag(tokens, force)) return { write: 'discard' };
  if (wholeTree !== null) return wholeTree;
  return hasDynamic(tokens) ? { unknown: 'an expansion could be `-f` or a whole-tree pathspec' } : null;
}

// `git -c clean.requireForce=false clean -d` deletes without `-f`.
function isRequireForceOff(config: HeadWord): boolean {
  if (config === null) return false;
  const equals = config.indexOf('=');
  if (equals === -1) return false;
  const key = config.slice(0, equals).toLowerCase();
  const value = config
    .slice(equals + 1)
    .trim()
    .toLowerCase();
  return key === 'clean.requireforce' && ['false', 'no', 'off', '0', ''].includes(value);
}
