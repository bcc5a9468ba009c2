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

/**
 * git's test identity, with the user's config file in the scratch repository (HOME): never
 * test-kit's GIT_CONFIG_GLOBAL=/dev/null, which a `git config --global` would replace with a file.
 */
const identityOf = (scratch: { repo: string }): Record<string, string> => ({
  ...gitIdentity,
  GIT_CONFIG_GLOBAL: join(scratch.repo, '.gitconfig'),
});

/** What a write leaves behind in the scratch repository. */
type Effect =
  | 'new commit'
  | 'moved ref'
  | 'pushed'
  | 'removed file'
  | 'discarded change'
  | 'merged pr'
  | 'removed worktree';

interface Scratch {
  repo: string;
  outside: string;
  remote: string;
  head: string;
  commits: number;
  refs: string;
  remoteRefs: string;
}

const refsOf = (repo: string) => git(repo, 'for-each-ref', '--format=%(refname) %(objectname)');

/**
 * A managed repository with a committed profile, a bare remote it has pushed main and a branch
 * `topic` (one commit ahead of the first) to, a tag `v1`, a linked worktree `../wt` with a change
 * of its own, a change to a tracked file, an untracked file, and beside it a folder that links
 * into it.
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
  git(repo, 'tag', 'v1');
  git(repo, 'switch', '-q', '-c', 'topic');
  writeFileSync(join(repo, 'topic.txt'), 'topic\n');
  git(repo, 'add', 'topic.txt');
  git(repo, 'commit', '-q', '-m', 'topic');
  git(repo, 'switch', '-q', 'main');
  git(repo, 'push', '-q', 'origin', 'main', 'topic');
  writeFileSync(join(repo, 'second.txt'), 'second\n');
  git(repo, 'add', 'second.txt');
  git(repo, 'commit', '-q', '-m', 'second');
  git(repo, 'worktree', 'add', '-q', '-b', 'wt', join(root, 'wt'));
  writeFileSync(join(root, 'wt', 'tracked.txt'), "the worktree's own change\n");
  writeFileSync(join(repo, 'tracked.txt'), 'changed\n');
  writeFileSync(join(repo, 'untracked.txt'), 'new\n');
  const outside = join(root, 'outside');
  mkdirSync(outside);
  symlinkSync(join(repo, 'sub'), join(outside, 'to-repo-sub'));
  const stubs = join(root, 'stubs');
  writeTree(stubs, {
    gh: executable(`#!/bin/sh\necho "$@" > ${join(root, 'gh-merged')}\n`),
    // ssh's command runs on another machine: here it runs nothing
    ssh: executable('#!/bin/sh\nexit 0\n'),
  });
  return {
    repo,
    outside,
    remote,
    head: git(repo, 'rev-parse', 'HEAD').trim(),
    commits: Number(git(repo, 'rev-list', '--count', 'HEAD').trim()),
    refs: refsOf(repo),
    remoteRefs: refsOf(remote),
  };
}

function effectsOf(scratch: Scratch): Effect[] {
  const { repo, remote } = scratch;
  const effects: Effect[] = [];
  const commits = Number(git(repo, 'rev-list', '--count', 'HEAD').trim());
  if (commits > scratch.commits) effects.push('new commit');
  else if (git(repo, 'rev-parse', 'HEAD').trim() !== scratch.head || refsOf(repo) !== scratch.refs)
    effects.push('moved ref');
  if (refsOf(remote) !== scratch.remoteRefs) effects.push('pushed');
  if (!existsSync(join(repo, 'untracked.txt'))) effects.push('removed file');
  const tracked = join(repo, 'tracked.txt');
  if (!existsSync(tracked) || readFileSync(tracked, 'utf8') === 'committed\n')
    effects.push('discarded change');
  if (existsSync(join(repo, '..', 'gh-merged'))) effects.push('merged pr');
  if (!existsSync(join(repo, '..', 'wt'))) effects.push('removed worktree');
  return effects;
}

/** The gate's verdict on a command run from `cwd`, with the scratch repository as HOME. */
function verdictIn(scratch: Scratch, command: string, cwd: string) {
  return evaluate(bashCall(command, cwd), realContext({ env: { HOME: scratch.repo }, raw: '' })).kind;
}

/** Runs a command in bash from `cwd` with the scratch identity and HOME (and `env` on top). */
function runIn(scratch: Scratch, command: string, cwd: string, env: Record<string, string> = {}) {
  return spawnSync('bash', ['-c', command], {
    cwd,
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, ...identityOf(scratch), HOME: scratch.repo, ...env },
  });
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
  { command: 'echo $(( $(git commit -qam x >&2; echo 1) ))', makes: 'new commit' },
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

// The rest of the write table (spec step 9): each row's write, run for real.
const tableWrites: { command: string; from?: 'outside'; makes: Effect }[] = [
  { command: 'git pull -q --no-rebase --no-edit origin topic', makes: 'new commit' },
  { command: 'git rebase -q --autostash topic', makes: 'new commit' },
  { command: 'git cherry-pick topic', makes: 'new commit' },
  { command: 'git revert --no-edit HEAD', makes: 'new commit' },
  { command: 'git format-patch -1 --stdout topic | git am -q', makes: 'new commit' },
  { command: 'git update-ref refs/heads/main HEAD~1', makes: 'moved ref' },
  { command: 'git symbolic-ref HEAD refs/heads/topic', makes: 'moved ref' },
  { command: 'git fetch -q --update-head-ok origin +topic:main', makes: 'moved ref' },
  { command: 'git send-pack ../remote.git HEAD:refs/heads/sent', makes: 'pushed' },
  { command: 'git branch -f topic main', makes: 'moved ref' },
  { command: 'git branch -D topic', makes: 'moved ref' },
  { command: 'git branch -m topic renamed', makes: 'moved ref' },
  { command: 'git branch -C main topic', makes: 'moved ref' },
  { command: 'git tag -f v1 HEAD', makes: 'moved ref' },
  { command: 'git tag -d v1', makes: 'moved ref' },
  { command: 'git stash -q', makes: 'discarded change' },
  { command: 'git rm -rqf .', makes: 'discarded change' },
  { command: 'git read-tree -u --reset HEAD', makes: 'discarded change' },
  { command: 'git checkout-index -fa', makes: 'discarded change' },
  { command: 'git worktree remove --force ../wt', makes: 'removed worktree' },
  { command: 'git diff | git apply -R', makes: 'discarded change' },
  { command: 'gh api -X PUT repos/{owner}/{repo}/pulls/7/merge', makes: 'merged pr' },
  { command: 'gh repo sync', makes: 'merged pr' },
];

// Beside an ssh: the remote command writes nothing here, the local git after or before it does.
const besideSsh: { command: string; makes: Effect }[] = [
  { command: "ssh host 'git pull -q' && git commit -qam x", makes: 'new commit' },
  { command: "git commit -qam x; ssh deploy@host 'git push'", makes: 'new commit' },
];

// Step 6: directory moves followed as bash makes them. From the folder beside the repository
// (`to-repo-sub` links to its sub folder), each ends in the repository and commits there.
const directoryMoves: { command: string; from?: 'outside'; makes: Effect }[] = [
  { command: 'set -P; cd to-repo-sub/.. && git commit -qam x', from: 'outside', makes: 'new commit' },
  { command: 'set -eo physical; cd to-repo-sub/..; git commit -qam x', from: 'outside', makes: 'new commit' },
  {
    command: 'shopt -s lastpipe; echo | cd ../repo; git commit -qam x',
    from: 'outside',
    makes: 'new commit',
  },
  { command: 'cd ../repo; cd ../outside; cd ~-; git commit -qam x', from: 'outside', makes: 'new commit' },
  { command: 'cd ../repo; cd ~+/sub && git commit -qam x', from: 'outside', makes: 'new commit' },
  {
    command: 'cd ../repo; cd ../outside; cd ~-/sub && git commit -qam x',
    from: 'outside',
    makes: 'new commit',
  },
  { command: 'HOME=../repo cd; git commit -qam x', from: 'outside', makes: 'new commit' },
  { command: 'set -P; pushd to-repo-sub/.. && git commit -qam x', from: 'outside', makes: 'new commit' },
  {
    command: 'shopt -s cdable_vars; r=../repo; cd r; git commit -qam x',
    from: 'outside',
    makes: 'new commit',
  },
];

// Step 6: the repository found as git finds it. `prepare` runs first (in the same folder): the
// folders git meets on its way up exist before the hook is asked.
const discoveries: { command: string; from?: 'outside'; prepare: string; makes: Effect }[] = [
  // an empty decoy .git folder between the cwd and the managed top: git skips it
  { command: 'cd sub && git commit -qam x', prepare: 'mkdir -p sub/.git', makes: 'new commit' },
  // a .git file that borrows the managed checkout's git directory (commit -a there deletes its files)
  {
    command: 'cd borrower && git commit -qam x',
    from: 'outside',
    prepare: 'mkdir borrower && echo "gitdir: ../../repo/.git" > borrower/.git',
    makes: 'new commit',
  },
  // an alias in the repository's config, and one in the user's (HOME is the scratch repository)
  { command: 'git ci3 -qam x', prepare: 'git config alias.ci3 commit', makes: 'new commit' },
  {
    command: 'git gp',
    prepare: 'git config --file "$HOME/.gitconfig" alias.gp \'!git push -q origin main\'',
    makes: 'pushed',
  },
  // GIT_DIR / --git-dir with the work tree elsewhere: the repository written is the git dir's
  {
    command: 'GIT_DIR=../repo/.git GIT_WORK_TREE=. git commit -qam x',
    from: 'outside',
    prepare: ':',
    makes: 'new commit',
  },
  {
    command: 'git --work-tree=. --git-dir=../repo/.git commit -qam x',
    from: 'outside',
    prepare: ':',
    makes: 'new commit',
  },
];

// Their twins: the same moves without the option (or back out again) stay outside, where the
// gate is silent and git finds no repository.
const directoryTwins: { command: string; prepare?: string }[] = [
  { command: 'cd to-repo-sub/.. && git commit -qam x' },
  { command: 'pushd to-repo-sub/.. && git commit -qam x' },
  { command: 'set -P; set +P; cd to-repo-sub/.. && git commit -qam x' },
  { command: 'echo | cd ../repo; git commit -qam x' },
  { command: 'shopt -s lastpipe; shopt -u lastpipe; echo | cd ../repo; git commit -qam x' },
  { command: 'cd ../repo; cd ../outside; cd ~+; git commit -qam x' },
  { command: 'HOME=../repo; HOME=. cd; git commit -qam x' },
  { command: 'r=../repo; cd r; git commit -qam x' },
  { command: 'shopt -s cdable_vars; r=../repo; cd r/..; git commit -qam x' },
  // discovery twins: a decoy with no repository above, a borrowed git directory of an unmanaged
  // repository, a git dir of another repository with the managed work tree
  { command: 'cd d && git commit -qam x', prepare: 'mkdir -p d/.git' },
  {
    command: 'cd b && git commit -qam x',
    prepare: 'git init -q p && mkdir b && echo "gitdir: ../p/.git" > b/.git',
  },
  { command: 'GIT_DIR=p/.git GIT_WORK_TREE=../repo git commit -qam x', prepare: 'git init -q p' },
];

// Each row makes a scratch repository with a dozen git calls, then runs bash: on a loaded machine
// that is seconds, so the bound is generous (it only ends a hung run).
const slow = { timeout: 120_000 };

// POSIX folders, symlinks and bash: the Windows runners skip it.
const hasBash = process.platform !== 'win32' && spawnSync('bash', ['--version']).status === 0;
const hasScript = spawnSync('script', ['--version']).status === 0;

describe.skipIf(!hasBash)('each laundering is denied, and run for real it makes the write', () => {
  const rows: { command: string; from?: 'outside'; prepare?: string; makes: Effect }[] = [
    ...launderings,
    ...tableWrites,
    ...besideSsh,
    ...directoryMoves,
    ...discoveries,
  ];
  test.for(rows)('$command: $makes', slow, ({ command, from, prepare, makes }) => {
    if (command.startsWith('script') && !hasScript) return;
    const scratch = makeScratch();
    const cwd = from === 'outside' ? scratch.outside : scratch.repo;
    const prepared = { ...process.env, ...identityOf(scratch), HOME: scratch.repo };
    if (prepare !== undefined) spawnSync('bash', ['-c', prepare], { cwd, env: prepared });
    const verdict = evaluate(bashCall(command, cwd), realContext({ env: { HOME: scratch.repo }, raw: '' }));
    expect(verdict.kind).toBe('deny');
    expect(effectsOf(scratch)).toEqual([]);
    const stubs = join(scratch.repo, '..', 'stubs');
    // find -execdir refuses a PATH with relative entries (the test runner adds ./node_modules/.bin).
    const path = [stubs, ...(process.env.PATH ?? '').split(':').filter((entry) => entry.startsWith('/'))];
    const run = spawnSync('bash', ['-c', command], {
      cwd,
      encoding: 'utf8',
      env: { ...process.env, ...identityOf(scratch), PATH: path.join(':'), HOME: scratch.repo },
    });
    expect(effectsOf(scratch), run.stderr).toContain(makes);
  });
});

describe.skipIf(!hasBash)(
  'each directory and discovery twin passes, and run for real it writes nothing',
  () => {
    test.for(directoryTwins)('$command', slow, ({ command, prepare }) => {
      const scratch = makeScratch();
      if (prepare !== undefined)
        spawnSync('bash', ['-c', prepare], {
          cwd: scratch.outside,
          env: { ...process.env, ...identityOf(scratch), HOME: scratch.repo },
        });
      expect(verdictIn(scratch, command, scratch.outside)).toBe('none');
      runIn(scratch, command, scratch.outside, { GIT_CEILING_DIRECTORIES: join(scratch.repo, '..') });
      expect(effectsOf(scratch)).toEqual([]);
    });
  },
);

// ssh's options that run nothing here, run for real where ssh is installed: no write.
const sshTwins = [
  "ssh -o ProxyCommand=none -o ProxyCommand='git commit -qam x' -o BatchMode=yes -p 1 127.0.0.1 true",
  "ssh -o ProxyCommand='git status --short' -o BatchMode=yes -o ConnectTimeout=1 nohost true",
  'ssh -J nohost -o BatchMode=yes -o ConnectTimeout=1 nohost true',
  "ssh -o LocalCommand='git commit -qam x' -o 'ProxyCommand git status' -o BatchMode=yes nohost true",
].map((command) => `${command} </dev/null`);

const hasSsh = spawnSync('sh', ['-c', 'command -v ssh']).status === 0;

describe.skipIf(!hasBash || !hasSsh)('each ssh twin passes, and run for real it writes nothing', () => {
  test.for(sshTwins)('%s', slow, (command) => {
    const scratch = makeScratch();
    expect(verdictIn(scratch, command, scratch.repo)).toBe('none');
    runIn(scratch, command, scratch.repo);
    expect(effectsOf(scratch)).toEqual([]);
  });
});

// LocalCommand runs after a login: a server on ssh's own pipe (`sshd -i` as the ProxyCommand, a key
// made here) lets it in, where sshd is installed with its privilege separation folder.
const sshd = '/usr/sbin/sshd';
const canLogIn = hasBash && hasSsh && existsSync(sshd) && existsSync('/run/sshd');

/** ssh options that log in to a server of this scratch folder, with no config of the user's. */
function loginOptions(root: string): string {
  writeFileSync(
    join(root, 'sshd_config'),
    [`HostKey ${root}/hostkey`, `AuthorizedKeysFile ${root}/userkey.pub`, 'StrictModes no', 'UsePAM no'].join(
      '\n',
    ),
  );
  for (const key of ['hostkey', 'userkey'])
    spawnSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(root, key)]);
  const server = `${sshd} -i -f ${root}/sshd_config`;
  return `-F /dev/null -i ${root}/userkey -o BatchMode=yes -o UserKnownHostsFile=/dev/null -o StrictHostKeyChecking=no -o 'ProxyCommand ${server}'`;
}

describe.skipIf(!canLogIn)(
  'a permitted LocalCommand runs after the login: denied, and run for real it writes',
  () => {
    test.for([
      { local: "-o PermitLocalCommand=yes -o LocalCommand='git commit -qam x'", writes: true },
      { local: "-o LocalCommand='git commit -qam x'", writes: false },
    ])('$local', slow, ({ local, writes }) => {
      const scratch = makeScratch();
      const command = `ssh ${loginOptions(join(scratch.repo, '..'))} ${local} localhost true </dev/null`;
      expect(verdictIn(scratch, command, scratch.repo)).toBe(writes ? 'deny' : 'none');
      const run = runIn(scratch, command, scratch.repo);
      expect(run.status, run.stderr).toBe(0); // the login happened
      expect(effectsOf(scratch)).toEqual(writes ? ['new commit'] : []);
    });
  },
);

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

// Step 8: launchers outside the old list, names bound to git on the line, and the shell escapes of
// editors and stream tools. `check` says whether this machine can run the row (root, namespaces).
const escapes: { command: string; makes: Effect; check?: string }[] = [
  // ssh runs ProxyCommand here before it connects, so it writes even when the host does not resolve.
  ...[
    "ssh -o ProxyCommand='git commit -qam x' -o BatchMode=yes -o ConnectTimeout=1 nohost true",
    "ssh -oProxyCommand='git commit -qam x' -o BatchMode=yes -o ConnectTimeout=1 nohost true",
    "ssh -o 'ProxyCommand git commit -qam x' -o BatchMode=yes -N nohost",
  ].map((command) => ({
    command: `${command} </dev/null`,
    makes: 'new commit' as const,
    check: 'command -v ssh',
  })),
  { command: 'runuser -u root -- git commit -qam x', makes: 'new commit', check: 'runuser -u root -- true' },
  { command: "su -c 'git commit -qam x' root", makes: 'new commit', check: 'su -c true root' },
  { command: 'chroot --skip-chdir / git commit -qam x', makes: 'new commit', check: 'chroot / true' },
  { command: 'unshare -r git commit -qam x', makes: 'new commit', check: 'unshare -r true' },
  { command: 'fakeroot git commit -qam x', makes: 'new commit', check: 'fakeroot true' },
  { command: 'prlimit --nofile=1024 git commit -qam x', makes: 'new commit', check: 'prlimit true' },
  { command: 'setpriv --reset-env git push -q origin main', makes: 'pushed', check: 'setpriv true' },
  { command: 'hash -p "$(command -v git)" g; g commit -qam x', makes: 'new commit' },
  { command: 'cp "$(command -v git)" ../g && ../g commit -qam x', makes: 'new commit' },
  { command: 'ln -s "$(command -v git)" ../g && ../g push -q origin main', makes: 'pushed' },
  { command: "vim -es -c '!git commit -qam x' -c q", makes: 'new commit', check: 'command -v vim' },
  {
    command: "ed -s tracked.txt <<'EOF'\n!git commit -qam x\nq\nEOF",
    makes: 'new commit',
    check: 'command -v ed',
  },
  { command: "sed -n '1e git commit -qam x' tracked.txt", makes: 'new commit' },
  { command: "npm exec -c 'git commit -qam x'", makes: 'new commit', check: 'command -v npm' },
  { command: "npx -c 'git push -q origin main'", makes: 'pushed', check: 'command -v npx' },
  // git's own command-valued config and environment
  {
    command: "git -c core.fsmonitor='git push -q origin HEAD:refs/heads/fsm; false' status",
    makes: 'pushed',
  },
  { command: "git -c diff.external='git push -q origin HEAD:refs/heads/dx; true' diff", makes: 'pushed' },
  { command: "GIT_EXTERNAL_DIFF='git push -q origin HEAD:refs/heads/gx; true' git diff", makes: 'pushed' },
  { command: "GIT_EDITOR='git push -q origin HEAD:refs/heads/ed; true' git tag -a t2", makes: 'pushed' },
  { command: "git -c core.editor='git push -q origin HEAD:refs/heads/ce; true' tag -a t3", makes: 'pushed' },
  { command: "git -c alias.p='!git push -q origin main' p", makes: 'pushed' },
  // the same variables exported earlier on the line (export, declare -x, typeset -x, set -a)
  {
    command: "export GIT_EDITOR='git push -q origin HEAD:refs/heads/xe; true'; git tag -a t4",
    makes: 'pushed',
  },
  {
    command: "declare -x GIT_EXTERNAL_DIFF='git push -q origin HEAD:refs/heads/xd; true'; git diff",
    makes: 'pushed',
  },
  {
    command:
      "typeset -x GIT_SSH_COMMAND='git push -q origin HEAD:refs/heads/xs; false'; git fetch -q ssh://h/r",
    makes: 'pushed',
  },
  {
    command: "set -a; GIT_EDITOR='git push -q origin HEAD:refs/heads/sa; true'; git tag -a t5",
    makes: 'pushed',
  },
  // an exported name stays exported when a later plain assignment changes it (VISUAL needs a
  // TERM that is not dumb)
  {
    command: "export VISUAL; VISUAL='git push -q origin HEAD:refs/heads/vi; true'; TERM=xterm git tag -a t6",
    makes: 'pushed',
  },
  {
    command:
      "export GIT_EDITOR=true; GIT_EDITOR='git push -q origin HEAD:refs/heads/re; true'; git tag -a t8",
    makes: 'pushed',
  },
  // config handed in GIT_CONFIG_COUNT / GIT_CONFIG_KEY_n / GIT_CONFIG_VALUE_n
  {
    command:
      "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.editor GIT_CONFIG_VALUE_0='git push -q origin HEAD:refs/heads/cc; true' git tag -a t7",
    makes: 'pushed',
  },
  {
    command:
      "export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=diff.external GIT_CONFIG_VALUE_0='git push -q origin HEAD:refs/heads/cd; true'; git diff",
    makes: 'pushed',
  },
  {
    command:
      "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0='git push -q origin HEAD:refs/heads/cf; false' git status",
    makes: 'pushed',
  },
  {
    command:
      "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.p GIT_CONFIG_VALUE_0='!git push -q origin main' git p",
    makes: 'pushed',
  },
  {
    command: 'GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.x GIT_CONFIG_VALUE_0=commit git x -qam x',
    makes: 'new commit',
  },
  {
    command: 'GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=clean.requireForce GIT_CONFIG_VALUE_0=false git clean -dq',
    makes: 'removed file',
  },
  // `|` ends an ex command: the `!` after it runs a shell
  {
    command: "vim -es -c 'set nu | !git commit -qam x' -c 'q!' tracked.txt",
    makes: 'new commit',
    check: 'command -v vim',
  },
  // out of Ex mode vim runs the `:` lines of the keys piped or redirected into it
  { command: "echo ':!git commit -qam x' | vim tracked.txt", makes: 'new commit', check: 'command -v vim' },
  {
    command: "printf ':!git push -q origin main\\n' | view tracked.txt",
    makes: 'pushed',
    check: 'command -v view',
  },
  { command: "vi tracked.txt <<< ':silent !git commit -qam x'", makes: 'new commit', check: 'command -v vi' },
  // the commands git's subcommands run: a submodule's foreach, a bisect's run
  {
    command:
      'git -c protocol.file.allow=always submodule add -q -b main "$(git remote get-url origin)" sm && ' +
      "git -c protocol.file.allow=always submodule -q foreach 'git push -q origin HEAD:refs/heads/fe'",
    makes: 'pushed',
  },
  {
    command: "git bisect start HEAD HEAD~1 && git bisect run sh -c 'git push -q origin HEAD:refs/heads/bi'",
    makes: 'pushed',
  },
  // an Ex script vim reads from its input
  {
    command: "vim -es tracked.txt <<'EOF'\n!git commit -qam x\nq\nEOF",
    makes: 'new commit',
    check: 'command -v vim',
  },
  {
    command: "ex -s tracked.txt <<< 'silent !git commit -qam x'",
    makes: 'new commit',
    check: 'command -v ex',
  },
  // aliases: written on the line, in the repository's config, in the user's
  { command: 'git config alias.ci commit && git ci -qam x', makes: 'new commit' },
  { command: "git config alias.pp '!git push -q origin main' && git pp", makes: 'pushed' },
  {
    command: 'git config alias.ci2 commit; git config --local alias.cc ci2; git cc -qam x',
    makes: 'new commit',
  },
  {
    command: 'TERM=xterm timeout 20 watch -n 1 -g git commit -qam x </dev/null',
    makes: 'new commit',
    check: 'command -v watch',
  },
];

describe.skipIf(!hasBash)('each escape is denied, and run for real it makes the write', () => {
  test.for(escapes)('$command: $makes', slow, ({ command, makes, check }) => {
    const scratch = makeScratch();
    expect(verdictIn(scratch, command, scratch.repo)).toBe('deny');
    if (check !== undefined && spawnSync('sh', ['-c', check], { stdio: 'ignore' }).status !== 0) return;
    const run = runIn(scratch, command, scratch.repo, { npm_config_yes: 'true', npm_config_offline: 'true' });
    expect(effectsOf(scratch), run.stderr).toContain(makes);
  });
});

// Routes the gate cannot read, so "cannot judge": refused in strict mode in a managed repository.
// Run for real each makes its write, so no opinion there would be a silent pass.
const unreadWrites: { command: string; makes: Effect; check: string }[] = [
  // :normal keys: `!!` filters the line through a shell (the \r ends the command line it types)
  {
    command: "vim -es -c $'norm !!git commit -qam x\\r' -c 'q!' tracked.txt",
    makes: 'new commit',
    check: 'command -v vim',
  },
  // an Ex script in a file vim reads as its input
  {
    command: "printf '!git commit -qam x\\nq!\\n' > ../k.ex && vim -es tracked.txt < ../k.ex",
    makes: 'new commit',
    check: 'command -v vim',
  },
];

describe.skipIf(!hasBash)(
  'each unread route is refused in strict mode, and run for real it makes the write',
  () => {
    test.for(unreadWrites)('$command: $makes', slow, ({ command, makes, check }) => {
      const scratch = makeScratch();
      const context = realContext({ env: { HOME: scratch.repo, TAGOUT_HOOKS_STRICT: '1' }, raw: '' });
      expect(evaluate(bashCall(command, scratch.repo), context).kind).toBe('refuse');
      if (spawnSync('sh', ['-c', check], { stdio: 'ignore' }).status !== 0) return;
      const run = runIn(scratch, command, scratch.repo);
      expect(effectsOf(scratch), run.stderr).toContain(makes);
    });
  },
);

// Their twins: restricted vim (rvim, rview, -Z) runs no shell command, so it is judged and passes.
const restrictedVims = [
  "rvim -es -c '!git commit -qam x' -c 'q!' tracked.txt",
  "vim -Z -es -c $'norm !!git commit -qam x\\r' -c 'q!' tracked.txt",
  "rview -es tracked.txt <<< 'silent !git commit -qam x'",
];

describe.skipIf(!hasBash)('restricted vim passes in strict mode, and run for real it writes nothing', () => {
  test.for(restrictedVims)('%s', slow, (command) => {
    const scratch = makeScratch();
    const context = realContext({ env: { HOME: scratch.repo, TAGOUT_HOOKS_STRICT: '1' }, raw: '' });
    expect(evaluate(bashCall(command, scratch.repo), context).kind).toBe('none');
    if (spawnSync('sh', ['-c', `command -v ${command.split(' ')[0]}`], { stdio: 'ignore' }).status !== 0)
      return;
    runIn(scratch, command, scratch.repo);
    expect(effectsOf(scratch)).toEqual([]);
  });
});

describe.skipIf(!hasBash)(
  'each launcher is unwrapped and denied, and run for real it makes the write',
  () => {
    test.for(launched)('$command: $makes', slow, ({ command, makes }) => {
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
        env: { ...process.env, ...identityOf(scratch), PATH: path.join(':'), HOME: scratch.repo },
      });
      expect(effectsOf(scratch), run.stderr).toContain(makes);
    });
  },
);
