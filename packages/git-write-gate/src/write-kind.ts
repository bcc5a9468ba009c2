import type { HeadWord } from './git-global-options.ts';

// The gate's write kinds and what one command head is, in a module of their own: the write class
// and the subcommand tables it reads (history-and-refs.ts, gh-writes.ts, subcommand-rule.ts) all name them.

/** The kinds of write the gate denies; a profile's `deny:` list names them. */
export type WriteKind =
  | 'commit'
  | 'push'
  | 'merge'
  | 'history'
  | 'ref'
  | 'reset-hard'
  | 'clean-force'
  | 'discard'
  | 'stash'
  | 'pr-merge';

/** Every write kind, in the order the spec's table lists them. */
export const writeKinds: readonly WriteKind[] = [
  'commit',
  'push',
  'merge',
  'history',
  'ref',
  'reset-hard',
  'clean-force',
  'discard',
  'stash',
  'pr-merge',
];

/** What one command head is, as far as the write class goes. */
export type HeadJudgement =
  | { kind: 'pass' } // not git or gh, a read, or an allowed form of a write command
  | { kind: 'git-init' } // later git segments on the line work in a fresh repository
  | { kind: 'write'; write: WriteKind; directories: HeadWord[]; retargeted: boolean }
  | { kind: 'unknown'; why: string; directories: HeadWord[] } // an expansion where the verdict depends on it
  | { kind: 'alias-shell'; text: string; directories: HeadWord[] }; // a config file's alias `!cmd`: a command line of its own
