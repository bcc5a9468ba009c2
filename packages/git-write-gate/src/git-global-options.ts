import { gitGlobalsWithValue } from '@kit/shell-segments';
import type { GlobReading } from './pathspec.ts';

/** A word of a command head: its literal value, or null when an expansion makes it unknown. */
export type HeadWord = string | null;

/** What git's own option loop (git.c, before the subcommand) makes of the words after `git`. */
export type GitGlobals =
  | {
      kind: 'subcommand';
      subcommand: HeadWord; // null: `git $cmd`
      args: HeadWord[];
      directories: HeadWord[]; // -C <path>, in order, then --work-tree (or the folder of --git-dir): git applies them one after another
      configs: HeadWord[]; // -c <key=value>, --config-env <key=envvar>
      globs: GlobReading; // --literal-pathspecs, --noglob-pathspecs: pathspec globs read literally
    }
  | { kind: 'no-subcommand' } // `git`, `git --version`, `git --exec-path`, an unknown option: git writes nothing
  | { kind: 'dynamic-option' }; // `git $opts commit`: an expansion where git reads options

// Options that take their value as the next word (and, for the long ones marked, also after `=`).
const separateValue = gitGlobalsWithValue;
// Options that take a value only when written `--name=value`.
const joinedValue = [
  '--git-dir=',
  '--work-tree=',
  '--namespace=',
  '--config-env=',
  '--attr-source=',
  '--super-prefix=',
  '--exec-path=',
  '--list-cmds=',
];
const noValue = new Set([
  '-p',
  '--paginate',
  '-P',
  '--no-pager',
  '--bare',
  '--no-replace-objects',
  '--literal-pathspecs',
  '--glob-pathspecs',
  '--noglob-pathspecs',
  '--icase-pathspecs',
  '--no-optional-locks',
  '--no-lazy-fetch',
  '--no-advice',
]);

/** GIT_DIR and GIT_WORK_TREE in git's environment (assigned in front of it); absent: not set there. */
export interface RepositoryVariables {
  GIT_DIR?: HeadWord;
  GIT_WORK_TREE?: HeadWord;
}

/**
 * Skips git's global options exactly as git does: `-C` and `-c` take the next word; the long
 * value options take the next word or `=value`; `--exec-path` takes one only with `=`; there are
 * no short-option clusters at this level. An unknown option or a missing value ends git with a
 * usage error, so nothing after it runs. GIT_DIR and GIT_WORK_TREE in `variables` say what
 * --git-dir and --work-tree say, and the options win over them.
 */
export function parseGitGlobals(words: HeadWord[], variables: RepositoryVariables = {}): GitGlobals {
  const directories: HeadWord[] = [];
  const configs: HeadWord[] = [];
  let globs: GlobReading = 'glob';
  // --work-tree and --git-dir say which repository git writes to: the last of each wins.
  let workTree: HeadWord | undefined = variables.GIT_WORK_TREE;
  let gitDir: HeadWord | undefined = variables.GIT_DIR;
  let index = 0;
  while (index < words.length) {
    const word = words[index] ?? null;
    if (word === null) return { kind: 'dynamic-option' };
    if (!word.startsWith('-')) break;
    if (separateValue.has(word)) {
      if (index + 1 >= words.length) return { kind: 'no-subcommand' };
      const value = words[index + 1] ?? null;
      if (word === '-C') directories.push(value);
      if (word === '-c' || word === '--config-env') configs.push(value);
      if (word === '--work-tree') workTree = value;
      if (word === '--git-dir') gitDir = value;
      index += 2;
      continue;
    }
    const joined = joinedValue.find((prefix) => word.startsWith(prefix));
    if (joined !== undefined) {
      if (joined === '--config-env=') configs.push(word.slice(joined.length));
      if (joined === '--work-tree=') workTree = word.slice(joined.length);
      if (joined === '--git-dir=') gitDir = word.slice(joined.length);
      index += 1;
      continue;
    }
    if (noValue.has(word)) {
      if (word === '--literal-pathspecs' || word === '--noglob-pathspecs') globs = 'literal';
      index += 1;
      continue;
    }
    // `--version`, `--help`, a bare `--exec-path`, `--html-path`...: git prints and stops. Any
    // other option is unknown to git, which stops with a usage error. Neither reaches a write.
    return { kind: 'no-subcommand' };
  }
  if (index >= words.length) return { kind: 'no-subcommand' };
  // The repository git writes is where it is judged, from where -C left git: with --git-dir it is
  // the one that git directory belongs to (`--git-dir=/x/.git` is /x), wherever --work-tree puts
  // the work tree; without it git finds the repository from the work tree's side.
  if (gitDir !== undefined) directories.push(gitDir === null ? null : `${gitDir}/..`);
  else if (workTree !== undefined) directories.push(workTree);
  return {
    kind: 'subcommand',
    subcommand: words[index] ?? null,
    args: words.slice(index + 1),
    directories,
    configs,
    globs,
  };
}
