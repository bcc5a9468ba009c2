import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { executable, git, gitIdentity, initRepo, tempDir, writeTree } from '@kit/test-kit';
import { describe, expect, test } from 'vitest';
import { realContext } from '../src/context.ts';
import { evaluate } from '../src/evaluate.ts';
import { bashCall } from './fake-context.ts';
import { profileText } from './fixtures.ts';

// Proof that the laundering rows matter: each command is denied in a managed repository, and run
// for real in a scratch one (with a stub gh) it makes the write the deny stands in the way of.

/** What a write leaves behind in the scratch repository. */
type Effect = 'new commit' | 'moved ref' | 'pushed' | 'removed file' | 'discarded change' | 'merged pr';

interface Scratch {
  repo: string;
  outside: string;
  remote: string;
  head: string;
  commits: number;
  remoteMain: string;
}

/**
 * A managed repository with a committed profile, a bare remote it has pushed main to, a change
 * to a tracked file, an untracked file, and beside it a folder that links into it.
 */
function makeScratch(): Scratch {
  const root = tempDir('gwg-real');
  const repo = initRepo(join(root, 'repo'), {
    '.claude/skills/repo-profile.md': profileText,
    'scripts/guarded-commit.sh': '#!/bin/sh\n',
    'tracked.txt': 'committed\n',
    'sub/.keep': '',
  });
  const remote = join(root, 'remote.git');
  git(root, 'init', '-q', '--bare', remote);
  git(repo, 'remote', 'add', 'origin', remote);
  git(repo, 'push', '-q', 'origin', 'main');
  git(repo, 'commit', '-q', '--allow-empty', '-m', 'second');
  writeFileSync(join(repo, 'tracked.txt'), 'changed\n');
  writeFileSync(join(repo, 'untracked.txt'), 'new\n');
  const outside = join(root, 'outside');
  mkdirSync(outside);
  symlinkSync(join(repo, 'sub'), join(outside, 'to-repo-sub'));
  const stubs = join(root, 'stubs');
  writeTree(stubs, { gh: executable(`#!/bin/sh\necho "$@" > ${join(root, 'gh-merged')}\n`) });
  return {
    repo,
    outside,
    remote,
    head: git(repo, 'rev-parse', 'HEAD').trim(),
    commits: Number(git(repo, 'rev-list', '--count', 'HEAD').trim()),
    remoteMain: git(remote, 'rev-parse', 'main').trim(),
  };
}

function effectsOf(scratch: Scratch): Effect[] {
  const { repo, remote } = scratch;
  const effects: Effect[] = [];
  const commits = Number(git(repo, 'rev-list', '--count', 'HEAD').trim());
  if (commits > scratch.commits) effects.push('new commit');
  else if (git(repo, 'rev-parse', 'HEAD').trim() !== scratch.head) effects.push('moved ref');
  const refs = git(remote, 'for-each-ref', '--format=%(refname) %(objectname)');
  if (refs.split('\n').some((line) => line !== '' && line !== `refs/heads/main ${scratch.remoteMain}`))
    effects.push('pushed');
  if (!existsSync(join(repo, 'untracked.txt'))) effects.push('removed file');
  if (readFileSync(join(repo, 'tracked.txt'), 'utf8') === 'committed\n') effects.push('discarded change');
  if (existsSync(join(repo, '..', 'gh-merged'))) effects.push('merged pr');
  return effects;
}

/** A laundering, where it runs (the repository, or the folder beside it), and the write it makes. */
const launderings: { command: string; from?: 'outside'; makes: Effect }[] = [
  { command: '\\git commit -qam x', makes: 'new commit' },
  { command: '"git" commit -qam x', makes: 'new commit' },
  { command: 'g\\it commit -qam x', makes: 'new commit' },
  { command: "$'\\x67it' commit -qam x", makes: 'new commit' },
  { command: "g$''it commit -qam x", makes: 'new commit' },
  { command: 'gi\\\nt commit -qam x', makes: 'new commit' },
  { command: 'env FOO=1 git commit -qam x', makes: 'new commit' },
  { command: 'timeout -s KILL 5 git push -q origin main', makes: 'pushed' },
  { command: "bash -c 'git push -q origin HEAD:refs/heads/laundered'", makes: 'pushed' },
  { command: 'xargs git push -q origin <<< main', makes: 'pushed' },
  { command: 'eval "git reset -q --hard HEAD~1"', makes: 'moved ref' },
  { command: 'echo $(git commit -qam x)', makes: 'new commit' },
  { command: 'find . -maxdepth 0 -execdir git commit -qam x \\;', makes: 'new commit' },
  { command: 'bash <<EOF\ngit clean -fdq\nEOF', makes: 'removed file' },
  { command: "echo 'git checkout -q -- .' | sh", makes: 'discarded change' },
  { command: "source <(echo 'git commit -qam x')", makes: 'new commit' },
  { command: "script -qc 'git commit -qam x' /dev/null", makes: 'new commit' },
  { command: 'git clean --f -d -q', makes: 'removed file' },
  { command: 'git checkout --f -q main', makes: 'discarded change' },
  { command: 'git restore --staged --wor .', makes: 'discarded change' },
  { command: "git checkout -- '?*'", makes: 'discarded change' },
  { command: 'git checkout -- sub/..', makes: 'discarded change' },
  { command: 'git -c clean.requireForce=false clean -dq', makes: 'removed file' },
  { command: 'cd /nonexistent 2>/dev/null; git commit -qam x', makes: 'new commit' },
  { command: 'cd to-repo-sub && git commit -qam x', from: 'outside', makes: 'new commit' },
  { command: 'git -C to-repo-sub/.. commit -qam x', from: 'outside', makes: 'new commit' },
  { command: 'go() { cd sub; }; go; git commit -qam x', makes: 'new commit' },
  { command: 'gh pr merge 12 --squash', makes: 'merged pr' },
];

// POSIX folders, symlinks and bash: the Windows runners skip it.
const hasBash = process.platform !== 'win32' && spawnSync('bash', ['--version']).status === 0;
const hasScript = spawnSync('script', ['--version']).status === 0;

describe.skipIf(!hasBash)('each laundering is denied, and run for real it makes the write', () => {
  test.for(launderings)('$command: $makes', ({ command, from, makes }) => {
    if (command.startsWith('script') && !hasScript) return;
    const scratch = makeScratch();
    const cwd = from === 'outside' ? scratch.outside : scratch.repo;
    const verdict = evaluate(bashCall(command, cwd), realContext({ env: { HOME: scratch.repo }, raw: '' }));
    expect(verdict.kind).toBe('deny');
    expect(effectsOf(scratch)).toEqual([]);
    const stubs = join(scratch.repo, '..', 'stubs');
    // find -execdir refuses a PATH with relative entries (the test runner adds ./node_modules/.bin).
    const path = [stubs, ...(process.env.PATH ?? '').split(':').filter((entry) => entry.startsWith('/'))];
    const run = spawnSync('bash', ['-c', command], {
      cwd,
      encoding: 'utf8',
      env: { ...process.env, ...gitIdentity, PATH: path.join(':'), HOME: scratch.repo },
    });
    expect(effectsOf(scratch), run.stderr).toContain(makes);
  });
});

// Launchers read with their own option grammar (shell-segments' launchers.ts): each is denied,
// and where the tool is on this machine it is also run for real.
const launched: { command: string; makes: Effect }[] = [
  { command: 'setsid git push -q origin HEAD:refs/heads/setsid', makes: 'pushed' },
  { command: 'setsid -w bash -c "git push -q origin HEAD:refs/heads/setsid-w"', makes: 'pushed' },
  { command: 'flock gwg.lock git commit -qam x', makes: 'new commit' },
  { command: "flock -w 5 gwg.lock -c 'git commit -qam x'", makes: 'new commit' },
  { command: 'ionice -c3 git commit -qam x', makes: 'new commit' },
  { command: 'chrt -i 0 git commit -qam x', makes: 'new commit' },
  { command: 'taskset -c 0 git commit -qam x', makes: 'new commit' },
  { command: 'doas git commit -qam x', makes: 'new commit' },
  { command: 'doas -u root git push -q origin main', makes: 'pushed' },
];

describe.skipIf(!hasBash)(
  'each launcher is unwrapped and denied, and run for real it makes the write',
  () => {
    test.for(launched)('$command: $makes', ({ command, makes }) => {
      const scratch = makeScratch();
      const verdict = evaluate(
        bashCall(command, scratch.repo),
        realContext({ env: { HOME: scratch.repo }, raw: '' }),
      );
      expect(verdict.kind).toBe('deny');
      const tool = command.split(' ')[0] as string;
      // doas is seldom installed (and would ask for a password): denied, not run.
      if (tool === 'doas' || spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) return;
      const stubs = join(scratch.repo, '..', 'stubs');
      const path = [stubs, ...(process.env.PATH ?? '').split(':').filter((entry) => entry.startsWith('/'))];
      const run = spawnSync('bash', ['-c', command], {
        cwd: scratch.repo,
        encoding: 'utf8',
        env: { ...process.env, ...gitIdentity, PATH: path.join(':'), HOME: scratch.repo },
      });
      expect(effectsOf(scratch), run.stderr).toContain(makes);
    });
  },
);
