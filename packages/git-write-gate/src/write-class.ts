import { type HeadWord, parseGitGlobals, type RepositoryVariables } from './git-global-options.ts';
import { builtinCommands } from './git-long-options.ts';
import { type GlobReading, isWholeTreePathspec, type PathspecBase } from './pathspec.ts';
import {
  type ArgToken,
  isNegated,
  isOption,
  type OptionSpec,
  optionSpecOf,
  scanArgs,
} from './subcommand-options.ts';

/** The kinds of write the gate denies; a profile's `deny:` list names them. */
export type WriteKind = 'commit' | 'push' | 'merge' | 'reset-hard' | 'clean-force' | 'discard' | 'pr-merge';

/** Every write kind, in the order the spec's table lists them. */
export const writeKinds: readonly WriteKind[] = [
  'commit',
  'push',
  'merge',
  'reset-hard',
  'clean-force',
  'discard',
  'pr-merge',
];

/** What one command head is, as far as the write class goes. */
export type HeadJudgement =
  | { kind: 'pass' } // not git or gh, a read, or an allowed form of a write command
  | { kind: 'git-init' } // later git segments on the line work in a fresh repository
  | { kind: 'write'; write: WriteKind; directories: HeadWord[]; retargeted: boolean }
  | { kind: 'unknown'; why: string; directories: HeadWord[] }; // an expansion where the verdict depends on it

const pass: HeadJudgement = { kind: 'pass' };

/** Where the command runs, for what resolves against it: git's pathspecs, after its `-C` options. */
export interface HeadPlace {
  pathspecBase: (directories: readonly HeadWord[]) => PathspecBase | null;
  variables?: RepositoryVariables; // GIT_DIR / GIT_WORK_TREE assigned in front of git
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

function judgeGit(words: HeadWord[], assignNames: readonly string[], place: HeadPlace): HeadJudgement {
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
  // handed on the line can turn another word into one (`-c alias.x=commit x`, GIT_CONFIG_COUNT=…).
  if (judged.kind !== 'pass' || builtinCommands.has(subcommand)) return judged;
  if (configs.some((config) => config === null || definesAlias(config, subcommand)))
    return { kind: 'unknown', why: `a \`-c\` option may make \`${subcommand}\` an alias`, directories };
  if (configured)
    return {
      kind: 'unknown',
      why: `config handed in the environment may make \`${subcommand}\` an alias`,
      directories,
    };
  return judged;
}

/** True when a `-c` key=value may define `alias.<subcommand>`, or pull in config files that do. */
function definesAlias(config: string, subcommand: string): boolean {
  const key = (config.split('=', 1)[0] ?? '').toLowerCase();
  return (
    key === `alias.${subcommand.toLowerCase()}` || key === 'include.path' || key.startsWith('includeif.')
  );
}

/** What a subcommand's rule reads besides its arguments: git's global options, and where pathspecs resolve. */
interface SubcommandSetting {
  directories: HeadWord[];
  configs: HeadWord[];
  configured: boolean; // config handed in the environment (GIT_CONFIG_COUNT=…)
  base: PathspecBase | null;
  globs: GlobReading;
}

type SubcommandRule = (tokens: ArgToken[], setting: SubcommandSetting) => Verdictish;
type Verdictish = { write: WriteKind } | { unknown: string } | null;

interface Subcommand {
  options: OptionSpec;
  rule: SubcommandRule;
}

// The short options that take a value, per subcommand; the long ones come from git's own lists.
const subcommands: Record<string, Subcommand> = {
  commit: {
    options: optionSpecOf('commit', 'mFCct'),
    rule: (tokens) => (lastFlag(tokens, ['--dry-run']) ? null : { write: 'commit' }),
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
};

function judgeSubcommand(subcommand: string, args: HeadWord[], setting: SubcommandSetting): HeadJudgement {
  const { directories } = setting;
  if (subcommand === 'init') return { kind: 'git-init' };
  const known = Object.hasOwn(subcommands, subcommand) ? subcommands[subcommand] : undefined;
  if (known === undefined) return pass;
  const tokens = scanArgs(args, known.options);
  // `-h`, `--help` or an ambiguous prefix anywhere: git prints usage and exits before any write.
  if (tokens.some((token) => token.kind === 'usage')) return pass;
  const outcome = known.rule(tokens, setting);
  if (outcome === null) return pass;
  if ('unknown' in outcome)
    return { kind: 'unknown', why: `git ${subcommand}: ${outcome.unknown}`, directories };
  return { kind: 'write', write: outcome.write, directories, retargeted: false };
}

/** checkout / switch: a forced switch, or (checkout) a whole-tree pathspec, discards the work tree. */
function judgeDiscard(tokens: ArgToken[], force: string[], wholeTree: Verdictish): Verdictish {
  if (lastFlag(tokens, force)) return { write: 'discard' };
  if (wholeTree !== null) return wholeTree;
  return hasDynamic(tokens) ? { unknown: 'an expansion could be `-f` or a whole-tree pathspec' } : null;
}

/**
 * The state of a boolean option after its last `--x` / `--no-x` (any of `names`, short or long):
 * parse-options lets the last one win.
 */
function lastFlag(tokens: ArgToken[], names: string[]): boolean {
  let state = false;
  for (const token of tokens) {
    if (isOption(token, ...names)) state = true;
    else if (isNegated(token, ...names)) state = false;
  }
  return state;
}

/** A discard when an operand is a whole-tree pathspec; cannot judge when the pathspecs come from a file. */
function wholeTreeOperand(tokens: ArgToken[], { base, globs }: SubcommandSetting): Verdictish {
  if (tokens.some((token) => isOption(token, '--pathspec-from-file')))
    return { unknown: 'the pathspecs come from a file (--pathspec-from-file)' };
  return tokens.some((token) => token.kind === 'operand' && isWholeTreePathspec(token.value, base, globs))
    ? { write: 'discard' }
    : null;
}

function hasDynamic(tokens: ArgToken[]): boolean {
  return tokens.some((token) => token.kind === 'dynamic');
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

/**
 * `gh pr merge`: a write in every form but `--disable-auto`. Retargeted when `-R`/`--repo`,
 * a `GH_REPO=` assignment, or a `/pull/N` URL points it at a repository the probe cannot see.
 */
function judgeGh(words: HeadWord[], assignNames: readonly string[]): HeadJudgement {
  const positional: HeadWord[] = [];
  let retargeted = assignNames.includes('GH_REPO');
  let help = false;
  for (let index = 0; index < words.length; index += 1) {
    const word = words[index] ?? null;
    if (word === null) {
      positional.push(word);
      continue;
    }
    if (word.includes('/pull/')) retargeted = true;
    if (word === '-h' || word === '--help') help = true;
    if (word === '-R' || word === '--repo') {
      retargeted = true;
      index += 1;
    } else if (word.startsWith('-R') || word.startsWith('--repo=')) {
      retargeted = true;
    } else if (ghValueFlags.has(word)) {
      index += 1;
    } else if (!word.startsWith('-')) {
      positional.push(word);
    }
  }
  const [group, action] = positional;
  if (group !== 'pr') return pass;
  if (action === null) return { kind: 'unknown', why: 'the gh pr action is an expansion', directories: [] };
  if (action !== 'merge') return pass;
  // `gh pr merge --help` prints help; `--disable-auto` only turns auto-merge off.
  if (help || words.includes('--disable-auto')) return pass;
  return { kind: 'write', write: 'pr-merge', directories: [], retargeted };
}

// gh pr merge's flags that take the next word as their value, so that the value is not read as a flag.
const ghValueFlags = new Set([
  '-b',
  '--body',
  '-F',
  '--body-file',
  '-t',
  '--subject',
  '-A',
  '--author-email',
  '--match-head-commit',
]);
