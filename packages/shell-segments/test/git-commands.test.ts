import { describe, expect, test } from 'vitest';
import { configCommandOf, gitMayRun } from '../src/git-commands.ts';
import { findNestedTexts } from '../src/runners.ts';
import { parse } from '../src/parse.ts';

// The commands git runs for its caller count only where the subcommand can run them (an editor
// for commit, tag, notes…; an external diff for the diff family; an ssh command for the network
// ones). A pager may start for any subcommand (wherever git's output is a terminal), and a name
// git does not build in (an alias, a script, a git-foo) may run anything.
const runs: [string | null, string, boolean][] = [
  ['commit', 'GIT_EDITOR', true],
  ['status', 'GIT_EDITOR', false],
  ['tag', 'EDITOR', true],
  ['log', 'VISUAL', false],
  ['rebase', 'GIT_SEQUENCE_EDITOR', true],
  ['commit', 'GIT_SEQUENCE_EDITOR', false],
  ['diff', 'GIT_EXTERNAL_DIFF', true],
  ['log', 'diff.external', true], // log --ext-diff
  ['status', 'GIT_EXTERNAL_DIFF', false],
  ['fetch', 'GIT_SSH_COMMAND', true],
  ['push', 'core.sshCommand', true],
  ['branch', 'GIT_SSH_COMMAND', false],
  ['status', 'GIT_PAGER', true],
  ['status', 'core.fsmonitor', true],
  ['ci', 'GIT_EDITOR', true], // an alias may be commit
  ['submodule', 'GIT_SSH_COMMAND', true], // a script: not in the table
  [null, 'GIT_EDITOR', true], // the subcommand is an expansion
  ['status', 'CORE.EDITOR', false], // keys in any case
];

describe('gitMayRun: what a subcommand can run', () => {
  test.for(runs)('git %s with %s: %s', ([subcommand, setting, may]) => {
    expect(gitMayRun(subcommand, setting)).toBe(may);
  });
});

const configs: [string, string | null, string | null, ReturnType<typeof configCommandOf>][] = [
  ['core.editor', 'git push', 'tag', { text: 'git push' }],
  ['core.editor', 'git push', 'status', null],
  ['core.editor', null, 'tag', { unknown: 'is only known at run time' }],
  ['core.editor', null, 'log', null],
  ['alias.p', '!git push', 'p', { text: 'git push' }],
  ['alias.p', '!git push', 'q', null], // another alias
  ['alias.x', 'commit', 'x', null], // not a shell command: the gate expands it
  ['credential.helper', '!git push', 'fetch', { text: 'git push' }],
  ['credential.helper', 'store', 'fetch', null],
  ['core.fsmonitor', 'true', 'status', null],
  ['core.fsmonitor', 'git push', 'status', { text: 'git push' }],
  ['core.hooksPath', '/tmp/h', 'status', { unknown: "runs hooks from a folder of the caller's choosing" }],
  ['user.name', 'x', 'commit', null],
];

describe('configCommandOf: the command line one config key hands git', () => {
  test.for(configs)('%s=%s for git %s', ([key, value, subcommand, want]) => {
    expect(configCommandOf(key, value, subcommand)).toEqual(want);
  });
});

// The same through the runner table: a prefix or `-c` of a command git cannot run is no nested line.
describe('the runner table reads them per subcommand', () => {
  test.for([
    ["GIT_EDITOR='git push' git tag -a t", ['git push']],
    ["GIT_EDITOR='git push' git status", []],
    ['GIT_EDITOR="$e" git log', []],
    ['GIT_EDITOR="$e" git commit', [null]],
    ["git -c diff.external='git push' diff", ['git push']],
    ["git -c diff.external='git push' fetch", []],
  ] as const)('%s', ([command, want]) => {
    const parsed = parse(command);
    if (!parsed.ok) throw new Error(parsed.message);
    const line = parsed.value;
    const texts = line.segments.flatMap((segment) => findNestedTexts(segment, line));
    expect(texts.map((text) => text.text)).toEqual(want);
  });
});
