import type { HeadWord } from './git-global-options.ts';
import { type ArgToken, isOption, optionSpecOf, scanArgs } from './subcommand-options.ts';
import {
  hasDynamic,
  lastFlag,
  type Subcommand,
  type Verdictish,
  wholeTreeOperand,
  writeOrDynamic,
} from './subcommand-rule.ts';
import type { WriteKind } from './write-kind.ts';

// The spec's write table past commit, push, merge, reset, clean, checkout, switch and restore:
// every other way git has to put a commit on a shared branch, move or delete a shared ref, or
// discard a work tree. The short options that take a value are given per subcommand; the long
// ones come from git's own lists (git-long-options.ts).

/** `--abort`, `--quit` and the reads of a sequencer stop it or look at it; everything else makes commits. */
function sequencer(stops: string[], write: WriteKind): Subcommand['rule'] {
  return (tokens) => (tokens.some((token) => isOption(token, ...stops)) ? null : { write });
}

const historyStops = ['--abort', '--quit', '--show-current-patch', '--edit-todo'];

function operands(tokens: ArgToken[]): number {
  return tokens.filter((token) => token.kind === 'operand').length;
}

export const historyAndRefSubcommands: Record<string, Subcommand> = {
  // `pull` is a fetch and a merge (or a rebase); `--dry-run` is fetch's, not a pull that writes nothing.
  pull: {
    options: optionSpecOf('pull', 'josX'),
    rule: sequencer(['--abort', '--continue', '--quit'], 'merge'),
  },
  rebase: { options: optionSpecOf('rebase', 'sXxC'), rule: sequencer(historyStops, 'history') },
  'cherry-pick': { options: optionSpecOf('cherry-pick', 'mXS'), rule: sequencer(historyStops, 'history') },
  revert: { options: optionSpecOf('revert', 'mXS'), rule: sequencer(historyStops, 'history') },
  am: { options: optionSpecOf('am', 'CpS'), rule: sequencer(historyStops, 'history') },
  'send-pack': {
    options: optionSpecOf('send-pack', ''),
    rule: (tokens) => (lastFlag(tokens, ['--dry-run']) ? null : { write: 'push' }),
  },
  // `--stdin` reads its updates from the input: only `verify` and `option` lines would be reads.
  'update-ref': {
    options: optionSpecOf('update-ref', 'm'),
    rule: (tokens) =>
      tokens.some((token) => isOption(token, '--stdin'))
        ? { unknown: 'the refs it updates come from its input (--stdin)' }
        : { write: 'ref' },
  },
  // `symbolic-ref HEAD` reads; `symbolic-ref HEAD refs/heads/x` and `-d` move or delete it.
  'symbolic-ref': {
    options: optionSpecOf('symbolic-ref', 'm'),
    rule: (tokens) =>
      writeOrDynamic(
        lastFlag(tokens, ['-d', '--delete']) || operands(tokens) >= 2,
        'ref',
        tokens,
        'the ref it points the name at',
      ),
  },
  // A fetch into the branch checked out moves it under the work tree.
  fetch: {
    options: optionSpecOf('fetch', 'jo'),
    rule: (tokens) => writeOrDynamic(lastFlag(tokens, ['-u', '--update-head-ok']), 'ref', tokens, '`-u`'),
  },
  branch: {
    options: optionSpecOf('branch', 'u'),
    rule: refRule(['-d', '-D', '--delete', '-m', '-M', '--move', '-C']),
  },
  tag: { options: optionSpecOf('tag', 'mFu'), rule: refRule(['-d', '--delete']) },
  rm: {
    options: optionSpecOf('rm', ''),
    rule: (tokens, setting) => {
      if (lastFlag(tokens, ['-n', '--dry-run']) || lastFlag(tokens, ['--cached'])) return null;
      const whole = wholeTreeOperand(tokens, setting);
      if (whole !== null) return whole;
      return hasDynamic(tokens) ? { unknown: 'an expansion could be a whole-tree pathspec' } : null;
    },
  },
  'read-tree': {
    options: optionSpecOf('read-tree', ''),
    rule: (tokens) =>
      writeOrDynamic(
        lastFlag(tokens, ['-u']) && !lastFlag(tokens, ['-n', '--dry-run']),
        'discard',
        tokens,
        '`-u`',
      ),
  },
  'checkout-index': {
    options: optionSpecOf('checkout-index', ''),
    rule: (tokens) => writeOrDynamic(lastFlag(tokens, ['-f', '--force']), 'discard', tokens, '`-f`'),
  },
  apply: { options: optionSpecOf('apply', 'pC'), rule: applyRule },
};

/** branch and tag: a forced one (`-f`, `-D`, `-M`, `-C`), a delete or a rename moves a shared ref. */
function refRule(moves: string[]): Subcommand['rule'] {
  return (tokens) =>
    writeOrDynamic(
      lastFlag(tokens, ['-f', '--force']) || tokens.some((token) => isOption(token, ...moves)),
      'ref',
      tokens,
      '`-f` or `-d`',
    );
}

/** `apply -R` onto the work tree takes changes out of it, as `checkout .` does. */
function applyRule(tokens: ArgToken[]): Verdictish {
  if (!lastFlag(tokens, ['-R', '--reverse']))
    return hasDynamic(tokens) ? { unknown: 'an expansion could be `-R`' } : null;
  const reportOnly =
    ['--check', '--stat', '--numstat', '--summary'].some((name) => lastFlag(tokens, [name])) &&
    !lastFlag(tokens, ['--apply']);
  if (reportOnly) return null;
  if (lastFlag(tokens, ['--cached']) && !lastFlag(tokens, ['--index'])) return null;
  return { write: 'discard' };
}

const stashReads = new Set(['list', 'show', 'create']);
const stashWrites = new Set(['push', 'save', 'pop', 'apply', 'drop', 'clear', 'branch', 'store']);

/**
 * `git stash` in every form but its reads: bare `stash` (and `stash -q`, `stash -- path`) is a
 * push, which takes the changes out of the work tree; `list`, `show` and `create` read.
 */
export function judgeStash(args: HeadWord[]): Verdictish {
  const first = args[0];
  if (first === undefined) return { write: 'stash' };
  if (first === null) return { unknown: 'the stash action is an expansion' };
  if (args.includes('-h') || args.includes('--help')) return null;
  if (first.startsWith('-')) return { write: 'stash' };
  if (stashReads.has(first)) return null;
  // `git stash foo` is an error: no push is assumed before a word that is not an action.
  return stashWrites.has(first) ? { write: 'stash' } : null;
}

/** `git worktree remove --force` deletes a linked work tree with its changes. */
export function judgeWorktree(args: HeadWord[]): Verdictish {
  const [action, ...rest] = args;
  if (action === undefined) return null;
  if (action === null) return { unknown: 'the worktree action is an expansion' };
  if (action !== 'remove') return null;
  const tokens = scanArgs(rest, optionSpecOf('worktree remove', ''));
  if (tokens.some((token) => token.kind === 'usage')) return null;
  return writeOrDynamic(lastFlag(tokens, ['-f', '--force']), 'discard', tokens, '`--force`');
}
