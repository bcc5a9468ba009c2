import { describe, expect, test } from 'vitest';
import type { HeadWord } from '../src/git-global-options.ts';
import { isGitLooking, mayMoveDirectory } from '../src/git-looking.ts';
import { isWholeTreePathspec, type PathspecBase } from '../src/pathspec.ts';
import { scanArgs } from '../src/subcommand-options.ts';
import { judgeHead } from '../src/write-class.ts';

const head = (line: string): HeadWord[] => line.split(' ').map((word) => (word === '$x' ? null : word));
const kindOf = (line: string, assigns: string[] = []): string => {
  const judged = judgeHead(head(line), assigns);
  return judged.kind === 'write' ? judged.write : judged.kind;
};

describe('judgeHead over head words', () => {
  test.for([
    ['git commit -m x', 'commit'],
    ['git commit --dry-run', 'pass'],
    ['git push -n', 'pass'],
    ['git push', 'push'],
    ['git merge --abort', 'pass'],
    ['git merge topic', 'merge'],
    ['git reset --hard', 'reset-hard'],
    ['git reset --soft', 'pass'],
    ['git clean -fd', 'clean-force'],
    ['git clean -fdn', 'pass'],
    ['git checkout .', 'discard'],
    ['git checkout main', 'pass'],
    ['git switch --discard-changes main', 'discard'],
    ['git restore .', 'discard'],
    ['git restore --staged .', 'pass'],
    ['gh pr merge 1', 'pr-merge'],
    ['gh pr merge --disable-auto 1', 'pass'],
    ['gh pr -R o/r merge 1', 'pr-merge'],
    ['gh issue close 1', 'pass'],
    ['git init', 'git-init'],
    ['git -C x init', 'git-init'],
    ['GIT.EXE push', 'pass'],
    ['git.exe push', 'push'],
    ['C:\\Git\\bin\\git.exe push', 'push'],
    ['/usr/local/bin/gh pr merge', 'pr-merge'],
    ['git $x', 'unknown'],
    ['git reset $x', 'unknown'],
    ['git clean $x', 'unknown'],
    ['git checkout $x', 'unknown'],
    ['git restore $x', 'unknown'],
    ['git restore --staged $x', 'pass'],
    ['git commit $x', 'commit'],
    ['git -c alias.st=push st', 'push'], // an alias is judged as what it expands to
    ['git -c $x st', 'unknown'],
    ['git -c $x commit', 'commit'],
    ['git -c alias.commit=status commit', 'commit'],
    ['git -c alias.x=commit x', 'commit'],
    ['git -c alias.x=status x', 'pass'],
    ['git -c include.path=/tmp/c x', 'unknown'],
    ['git -c alias.st=status status', 'pass'],
    ['git -c $x clean -d', 'unknown'],
    ['git -c $x status', 'pass'],
    ['gh pr $x 1', 'unknown'],
    ['make push', 'pass'],
    ['legit push', 'pass'],
  ])('%s: %s', ([line, kind]) => expect(kindOf(line ?? '')).toBe(kind));

  // The spec's write table past the first eight subcommands (step 9), both ways.
  test.for([
    ['git commit --short', 'pass'],
    ['git commit --porcelain -a', 'pass'],
    ['git commit --long', 'pass'],
    ['git pull', 'merge'],
    ['git pull --rebase origin main', 'merge'],
    ['git pull --dry-run', 'merge'],
    ['git pull -h', 'pass'],
    ['git rebase main', 'history'],
    ['git rebase --continue', 'history'],
    ['git rebase --skip', 'history'],
    ['git rebase -i HEAD~3', 'history'],
    ['git rebase --abort', 'pass'],
    ['git rebase --quit', 'pass'],
    ['git rebase --show-current-patch', 'pass'],
    ['git rebase --edit-todo', 'pass'],
    ['git cherry-pick abc123', 'history'],
    ['git cherry-pick --continue', 'history'],
    ['git cherry-pick --abort', 'pass'],
    ['git cherry-pick --quit', 'pass'],
    ['git revert HEAD', 'history'],
    ['git revert --no-edit -m 1 HEAD', 'history'],
    ['git revert --abort', 'pass'],
    ['git am', 'history'],
    ['git am -3 0001.patch', 'history'],
    ['git am --skip', 'history'],
    ['git am --abort', 'pass'],
    ['git am --show-current-patch=diff', 'pass'],
    ['git update-ref refs/heads/main HEAD~1', 'ref'],
    ['git update-ref -d refs/heads/topic', 'ref'],
    ['git update-ref --stdin', 'unknown'],
    ['git symbolic-ref HEAD refs/heads/topic', 'ref'],
    ['git symbolic-ref -d HEAD', 'ref'],
    ['git symbolic-ref HEAD', 'pass'],
    ['git symbolic-ref --short -q HEAD', 'pass'],
    ['git symbolic-ref HEAD $x', 'unknown'],
    ['git fetch --update-head-ok origin main:main', 'ref'],
    ['git fetch -u origin +topic:main', 'ref'],
    ['git fetch origin main', 'pass'],
    ['git fetch --all --prune', 'pass'],
    ['git send-pack ../remote.git main', 'push'],
    ['git send-pack --dry-run ../remote.git main', 'pass'],
    ['git branch -f topic main', 'ref'],
    ['git branch --force topic', 'ref'],
    ['git branch -D topic', 'ref'],
    ['git branch -d topic', 'ref'],
    ['git branch --delete topic', 'ref'],
    ['git branch -m topic renamed', 'ref'],
    ['git branch -M main', 'ref'],
    ['git branch -C main topic', 'ref'],
    ['git branch -cf main topic', 'ref'],
    ['git branch', 'pass'],
    ['git branch -a -v', 'pass'],
    ['git branch --list "feat/*"', 'pass'],
    ['git branch new-branch', 'pass'],
    ['git branch -c topic copy', 'pass'],
    ['git branch -u origin/main', 'pass'],
    ['git branch $x', 'unknown'],
    ['git tag -f v1', 'ref'],
    ['git tag -d v1', 'ref'],
    ['git tag --delete v1', 'ref'],
    ['git tag', 'pass'],
    ['git tag -l', 'pass'],
    ['git tag v2', 'pass'],
    ['git tag -a v2 -m -f', 'pass'],
    ['git stash', 'stash'],
    ['git stash -q', 'stash'],
    ['git stash -- tracked.txt', 'stash'],
    ['git stash push -m wip', 'stash'],
    ['git stash save wip', 'stash'],
    ['git stash pop', 'stash'],
    ['git stash apply stash@{1}', 'stash'],
    ['git stash drop', 'stash'],
    ['git stash clear', 'stash'],
    ['git stash branch topic', 'stash'],
    ['git stash list', 'pass'],
    ['git stash show -p', 'pass'],
    ['git stash push -h', 'pass'],
    ['git stash $x', 'unknown'],
    ['git rm -r .', 'discard'],
    ['git rm -rf :/', 'discard'],
    ['git rm -r --cached .', 'pass'],
    ['git rm -r -n .', 'pass'],
    ['git rm old.txt', 'pass'],
    ['git read-tree -u --reset HEAD', 'discard'],
    ['git read-tree -mu HEAD', 'discard'],
    ['git read-tree HEAD', 'pass'],
    ['git read-tree -n -u -m HEAD', 'pass'],
    ['git checkout-index -f -a', 'discard'],
    ['git checkout-index -fa', 'discard'],
    ['git checkout-index -a', 'pass'],
    ['git checkout-index --prefix=out/ -a', 'pass'],
    ['git worktree remove --force ../wt', 'discard'],
    ['git worktree remove -f -f ../wt', 'discard'],
    ['git worktree remove ../wt', 'pass'],
    ['git worktree add ../wt', 'pass'],
    ['git worktree list', 'pass'],
    ['git apply -R fix.patch', 'discard'],
    ['git apply --reverse --index fix.patch', 'discard'],
    ['git apply fix.patch', 'pass'],
    ['git apply -R --check fix.patch', 'pass'],
    ['git apply -R --stat fix.patch', 'pass'],
    ['git apply -R --cached fix.patch', 'pass'],
    ['git apply -R --stat --apply fix.patch', 'discard'],
    ['gh api -X PUT repos/o/r/pulls/7/merge', 'pr-merge'],
    ['gh api --method=put repos/{owner}/{repo}/pulls/7/merge', 'pr-merge'],
    ['gh api -XPUT /repos/o/r/pulls/7/merge', 'pr-merge'],
    ['gh api repos/o/r/pulls/7/merge', 'pass'],
    ['gh api -X GET repos/o/r/pulls/7/merge', 'pass'],
    ['gh api -X PUT repos/o/r/pulls/7/requested_reviewers', 'pass'],
    ['gh api -X $x repos/o/r/pulls/7/merge', 'unknown'],
    ['gh repo sync', 'pr-merge'],
    ['gh repo sync --force -b main', 'pr-merge'],
    ['gh repo sync o/fork --source o/r', 'pr-merge'],
    ['gh repo view', 'pass'],
    ['gh repo sync --help', 'pass'],
  ])('%s: %s', ([line, kind]) => expect(kindOf(line ?? '')).toBe(kind));

  test('retargeting marks a gh pr merge', () => {
    expect(judgeHead(head('gh pr merge 1'))).toMatchObject({ retargeted: false });
    expect(judgeHead(head('gh pr merge 1'), ['GH_REPO'])).toMatchObject({ retargeted: true });
    expect(judgeHead(head('gh pr merge --repo=o/r 1'))).toMatchObject({ retargeted: true });
    expect(judgeHead(head('gh pr merge https://github.com/o/r/pull/1'))).toMatchObject({ retargeted: true });
  });
  test('git -C directories come back in order', () => {
    expect(judgeHead(head('git -C /a -C b push'))).toMatchObject({ kind: 'write', directories: ['/a', 'b'] });
  });
});

describe('short-option clusters split, values stay whole, long options by prefix, -- starts the pathspecs', () => {
  const commit = {
    valueShort: 'm',
    long: ['message=', 'dry-run', 'no-dry-run', 'date=', 'no-date', 'verbose', 'no-verify', 'verify'],
  };
  test.for([
    ['-fd', ['-f', '-d']],
    ['-am msg', ['-a', '-m=msg']],
    ['-amsg', ['-a', '-m=sg']],
    ['--message msg', ['--message=msg']],
    ['--mess msg', ['--message=msg']],
    ['--message=a=b', ['--message=a=b']],
    ['--dry', ['--dry-run']],
    ['--no-dry', ['--no-dry-run']],
    ['--no-dry-run', ['--no-dry-run']],
    ['--verify', ['--verify']],
    ['--no-verify', ['--no-verify']],
    ['--ver', ['usage']],
    ['--d', ['usage']],
    ['--no', ['usage']],
    ['--no-', ['usage']],
    ['--future-option x', ['--future-option', 'x']],
    ['-h', ['usage']],
    ['-ah', ['-a', 'usage']],
    ['-mh', ['-m=h']],
    ['-m -h', ['-m=-h']],
    ['--help', ['usage']],
    ['-- -h', ['-h']],
    ['-- -f .', ['-f', '.']],
    ['- x', ['-', 'x']],
    ['$x', ['?']],
  ])('%s', ([line, tokens]) => {
    const read = scanArgs(head(line as string), commit).map((token) => {
      switch (token.kind) {
        case 'option': {
          const name = token.negated ? `--no-${token.name.slice(2)}` : token.name;
          return token.value === undefined ? name : `${name}=${token.value}`;
        }
        case 'operand':
          return token.value;
        case 'usage':
          return 'usage';
        default:
          return '?';
      }
    });
    expect(read).toEqual(tokens);
  });
});

describe('whole-tree pathspecs', () => {
  test.for([
    '.',
    './',
    '..',
    '../..',
    ':/',
    ':(top)',
    ':(top).',
    ':/.',
    '*',
    '**',
    '',
    ':!build',
    ':^build',
    ':(exclude)build',
    './.',
  ])('%j covers the whole tree', (pathspec) => {
    expect(isWholeTreePathspec(pathspec)).toBe(true);
  });
  test.for(['src', './src', ':/src', ':(top)src', 'src/*', '*.ts', 'README.md', '.github'])(
    '%j names paths',
    (pathspec) => {
      expect(isWholeTreePathspec(pathspec)).toBe(false);
    },
  );
});

describe('whole-tree pathspecs by resolution, from /repo/sub of the work tree /repo', () => {
  const base: PathspecBase = { directory: '/repo/sub', top: '/repo' };
  test.for([
    '.',
    'x/..',
    './x/../',
    '..',
    '/repo/sub',
    '/repo',
    '/repo/sub/.',
    ':/',
    ':(top)',
    ':/sub',
    ':(top)sub/x/..',
    '*',
    '?*',
    '../*',
    '/repo/*',
    '*/..',
    ':(glob)*',
    ':!vendor',
  ])('%j covers it', (pathspec) => expect(isWholeTreePathspec(pathspec, base)).toBe(true));
  test.for([
    'src',
    '../other',
    '/repo/other',
    '/elsewhere',
    '../..',
    '/',
    ':/other',
    ':/sub/deep',
    '*.ts',
    '??*',
    'x/*',
    ':(literal)*',
    ':(literal)?*',
  ])('%j does not', (pathspec) => expect(isWholeTreePathspec(pathspec, base)).toBe(false));
  test('above the top git stops (outside repository): not a whole-tree pathspec', () => {
    expect(isWholeTreePathspec('..', { directory: '/repo', top: '/repo' })).toBe(false);
    expect(isWholeTreePathspec('..', { directory: '/repo', top: null })).toBe(true);
  });
  test('--literal-pathspecs reads globs literally, unless :(glob) says otherwise', () => {
    expect(isWholeTreePathspec('*', base, 'literal')).toBe(false);
    expect(isWholeTreePathspec(':(glob)*', base, 'literal')).toBe(true);
    expect(isWholeTreePathspec('.', base, 'literal')).toBe(true);
  });
});

describe('the cheap reject', () => {
  test.for([
    'git status',
    'echo legit',
    'gh pr merge 1',
    'gh x && merge',
    'g\\it push',
    'g""it push',
    "'g'h pr merge",
    '\\git push',
    'gi\\\nt push',
    "g$''it push",
    'g$""it push',
    "$'\\x67it' push",
    "$'\\147it' push",
    `bash -c "\\$""'\\\\x67it' push"`,
  ])('%j is git-looking', (text) => {
    expect(isGitLooking(text)).toBe(true);
  });
  test.for([
    'ls -la',
    'make test',
    'merge gh',
    'npm run build',
    'GIT push',
    'gh pr view',
    'cat a\\b',
    "rg 'customer\\.ex|customers'",
    'echo "a\\"b" | sed s/x\\/y/',
    "printf '%s\\n' done",
  ])('%j is not', (text) => {
    expect(isGitLooking(text)).toBe(false);
  });
});

describe('mayMoveDirectory: can any segment run elsewhere than the payload cwd?', () => {
  test.for([
    'cd sub && git commit',
    'c""d sub && git commit',
    "c'd' sub; git push",
    'pushd sub; git push',
    'git -C sub commit',
    'env -C sub git commit',
    'env --chdir=sub git commit',
    // env and sudo take any unique prefix of --chdir
    'env --c=sub git commit',
    'env --ch sub git commit',
    "env --c'hd'=sub git commit",
    'sudo --chd sub git commit',
    'sudo --chdi=sub git commit',
    'env --c=sub',
    'sudo -D sub git commit',
    'sudo -uxD sub git commit',
    'git commit -m "$(date)"',
    'git commit -m `date`',
    "$'\\x63d' sub && git commit",
    'g\\it push',
    'find /repo -execdir git commit \\;',
    'git --git-dir=/repo/.git push',
    'git --work-tree /repo commit',
  ])('%j may', (text) => expect(mayMoveDirectory(text)).toBe(true));
  test.for([
    'git status',
    'git commit -m wip',
    'git push origin main',
    'git reset --hard HEAD~1',
    'gh pr merge 7',
    'git diff --cached --color',
    'git log --cc --check',
  ])('%j cannot', (text) => expect(mayMoveDirectory(text)).toBe(false));
});
