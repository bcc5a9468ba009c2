import { type HeadWord, parseGitGlobals } from './git-global-options.ts';
import { isWholeTreePathspec } from './pathspec.ts';
import { type ArgToken, isLongOption, isOption, type OptionSpec, scanArgs } from './subcommand-options.ts';

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

/**
 * Judges the head words of one simple command (the words after launchers and assignments):
 * `git` (any path, `git.exe`, the dashed `git-push` form) with its global options skipped as git
 * skips them, or `gh pr merge`. `assignNames` are the names assigned in front of it (`GH_REPO=`).
 */
export function judgeHead(words: HeadWord[], assignNames: readonly string[] = []): HeadJudgement {
  const program = words[0];
  if (program === undefined || program === null) return pass;
  const name = baseName(program);
  if (name === 'git') return judgeGit(words.slice(1));
  if (name.startsWith('git-')) return judgeSubcommand(name.slice(4), words.slice(1), [], []);
  if (name === 'gh') return judgeGh(words.slice(1), assignNames);
  return pass;
}

function baseName(program: string): string {
  const last = program.split(/[\\/]/).pop() ?? program;
  return last.toLowerCase().endsWith('.exe') ? last.slice(0, -4) : last;
}

function judgeGit(words: HeadWord[]): HeadJudgement {
  const globals = parseGitGlobals(words);
  if (globals.kind === 'no-subcommand') return pass;
  if (globals.kind === 'dynamic-option')
    return { kind: 'unknown', why: 'an expansion stands where git reads its options', directories: [] };
  const { subcommand, args, directories, configs } = globals;
  if (subcommand === null) return { kind: 'unknown', why: 'the git subcommand is an expansion', directories };
  if (configs.some((config) => config === null || isAliasFor(config, subcommand))) {
    return { kind: 'unknown', why: 'a `-c` option may redefine the subcommand', directories };
  }
  return judgeSubcommand(subcommand, args, directories, configs);
}

function isAliasFor(config: string, subcommand: string): boolean {
  return (
    config.toLowerCase().startsWith(`alias.${subcommand.toLowerCase()}=`) ||
    config.toLowerCase() === `alias.${subcommand.toLowerCase()}`
  );
}

type SubcommandRule = (tokens: ArgToken[], configs: HeadWord[]) => Verdictish;
type Verdictish = { write: WriteKind } | { unknown: string } | null;

interface Subcommand {
  options: OptionSpec;
  rule: SubcommandRule;
}

const subcommands: Record<string, Subcommand> = {
  commit: {
    options: {
      valueShort: 'mFCct',
      valueLong: [
        '--message',
        '--file',
        '--reuse-message',
        '--reedit-message',
        '--template',
        '--author',
        '--date',
        '--cleanup',
        '--fixup',
        '--squash',
        '--trailer',
      ],
    },
    rule: (tokens) => (lastFlag(tokens, ['--dry-run'], ['--no-dry-run']) ? null : { write: 'commit' }),
  },
  push: {
    options: { valueShort: 'o', valueLong: ['--repo', '--receive-pack', '--exec', '--push-option'] },
    rule: (tokens) => (lastFlag(tokens, ['-n', '--dry-run'], ['--no-dry-run']) ? null : { write: 'push' }),
  },
  merge: {
    options: {
      valueShort: 'mFsX',
      valueLong: ['--message', '--file', '--strategy', '--strategy-option', '--into-name', '--cleanup'],
    },
    rule: (tokens) =>
      tokens.some((token) => isOption(token, '--abort', '--continue', '--quit')) ? null : { write: 'merge' },
  },
  reset: {
    options: { valueShort: '', valueLong: [] },
    rule: (tokens) => {
      // The mode options share one setting: the last one given wins (`--hard --soft` is soft).
      let hard = false;
      for (const token of tokens) {
        if (isLongOption(token, '--hard', 4)) hard = true;
        else if (isOption(token, '--soft', '--mixed', '--keep', '--merge')) hard = false;
      }
      if (hard) return { write: 'reset-hard' };
      return hasDynamic(tokens) ? { unknown: 'an expansion could be `--hard`' } : null;
    },
  },
  clean: {
    options: { valueShort: 'e', valueLong: ['--exclude'] },
    rule: (tokens, configs) => {
      if (tokens.some((token) => isOption(token, '-n', '--dry-run', '-i', '--interactive'))) return null;
      const forced =
        tokens.some((token) => isOption(token, '-f') || isLongOption(token, '--force', 4)) ||
        configs.some(isRequireForceOff);
      if (forced) return { write: 'clean-force' };
      return hasDynamic(tokens) ? { unknown: 'an expansion could be `-f`' } : null;
    },
  },
  checkout: {
    options: { valueShort: 'bB', valueLong: ['--orphan', '--conflict', '--pathspec-from-file'] },
    rule: (tokens) => judgeDiscard(tokens, tokens.some(isWholeTreeOperand)),
  },
  switch: {
    options: { valueShort: 'cC', valueLong: ['--orphan', '--conflict'] },
    rule: (tokens) => judgeDiscard(tokens, false),
  },
  restore: {
    options: { valueShort: 's', valueLong: ['--source', '--conflict', '--pathspec-from-file'] },
    rule: (tokens) => {
      const staged = tokens.some((token) => isOption(token, '-S', '--staged'));
      const worktree = tokens.some((token) => isOption(token, '-W', '--worktree'));
      // `--staged` alone restores the index only; the work tree is left as it is.
      const touchesWorkTree = worktree || !staged;
      if (touchesWorkTree && tokens.some(isWholeTreeOperand)) return { write: 'discard' };
      return touchesWorkTree && hasDynamic(tokens)
        ? { unknown: 'an expansion could be a whole-tree pathspec' }
        : null;
    },
  },
};

function judgeSubcommand(
  subcommand: string,
  args: HeadWord[],
  directories: HeadWord[],
  configs: HeadWord[],
): HeadJudgement {
  if (subcommand === 'init') return { kind: 'git-init' };
  const known = Object.hasOwn(subcommands, subcommand) ? subcommands[subcommand] : undefined;
  if (known === undefined) return pass;
  const outcome = known.rule(scanArgs(args, known.options), configs);
  if (outcome === null) return pass;
  if ('unknown' in outcome)
    return { kind: 'unknown', why: `git ${subcommand}: ${outcome.unknown}`, directories };
  return { kind: 'write', write: outcome.write, directories, retargeted: false };
}

/** checkout / switch: a forced switch, or (checkout) a whole-tree pathspec, discards the work tree. */
function judgeDiscard(tokens: ArgToken[], wholeTree: boolean): Verdictish {
  const forced = tokens.some(
    (token) => isOption(token, '-f', '--discard-changes') || isLongOption(token, '--force', 4),
  );
  if (forced || wholeTree) return { write: 'discard' };
  return hasDynamic(tokens) ? { unknown: 'an expansion could be `-f` or a whole-tree pathspec' } : null;
}

/** The state of a boolean option after its last `--x` / `--no-x`: parse-options lets the last one win. */
function lastFlag(tokens: ArgToken[], on: string[], off: string[]): boolean {
  let state = false;
  for (const token of tokens) {
    if (isOption(token, ...on)) state = true;
    else if (isOption(token, ...off)) state = false;
  }
  return state;
}

function hasDynamic(tokens: ArgToken[]): boolean {
  return tokens.some((token) => token.kind === 'dynamic');
}

function isWholeTreeOperand(token: ArgToken): boolean {
  return token.kind === 'operand' && isWholeTreePathspec(token.value);
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
  for (let index = 0; index < words.length; index += 1) {
    const word = words[index] ?? null;
    if (word === null) {
      positional.push(word);
      continue;
    }
    if (word.includes('/pull/')) retargeted = true;
    if (word === '-R' || word === '--repo') {
      retargeted = true;
      index += 1;
    } else if (word.startsWith('-R') || word.startsWith('--repo=')) {
      retargeted = true;
    } else if (!word.startsWith('-')) {
      positional.push(word);
    }
  }
  const [group, action] = positional;
  if (group !== 'pr') return pass;
  if (action === null) return { kind: 'unknown', why: 'the gh pr action is an expansion', directories: [] };
  if (action !== 'merge') return pass;
  if (words.includes('--disable-auto')) return pass;
  return { kind: 'write', write: 'pr-merge', directories: [], retargeted };
}
