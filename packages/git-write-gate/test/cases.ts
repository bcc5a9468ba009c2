import type { WriteKind } from '../src/write-class.ts';

/** One row: every command in it must get the same answer (cwd /repos/managed unless given). */
export interface Case {
  name: string;
  commands: string[];
  want: 'deny' | 'silent';
  rule?: WriteKind;
  cwd?: string;
}

export const cases: Case[] = [
  // positive control: the canonical deny
  { name: 'a plain push', want: 'deny', rule: 'push', commands: ['git push origin main'] },

  // git commit
  {
    name: 'commit, every form',
    want: 'deny',
    rule: 'commit',
    commands: [
      'git commit -m x',
      'git commit --amend --no-edit',
      'git commit -F -',
      'git commit -am "fix it"',
      'git commit -m --dry-run',
      'git commit --dry-run --no-dry-run -m x',
      'git commit',
    ],
  },
  {
    name: 'commit dry run',
    want: 'silent',
    commands: ['git commit --dry-run', 'git commit -m x --dry-run', 'git commit --no-dry-run --dry-run'],
  },

  // git push
  {
    name: 'push, every form',
    want: 'deny',
    rule: 'push',
    commands: [
      'git push',
      'git push --force origin main',
      'git push -f',
      'git push --force-with-lease origin HEAD',
      'git push --delete origin feature',
      'git push origin :feature',
      'git push origin +main',
      'git push --tags',
      'git push -uf origin main',
      'git push -o -n origin main',
      'git push --dry-run --no-dry-run',
    ],
  },
  {
    name: 'push dry run',
    want: 'silent',
    commands: [
      'git push -n',
      'git push --dry-run origin main',
      'git push -un origin main',
      'git push --no-dry-run -n',
    ],
  },

  // git merge
  {
    name: 'merge',
    want: 'deny',
    rule: 'merge',
    commands: [
      'git merge feature',
      'git merge --no-ff -m "merge it" feature',
      'git merge --squash feature',
      'git merge -m --abort feature',
    ],
  },
  {
    name: 'merge abort, continue, quit',
    want: 'silent',
    commands: ['git merge --abort', 'git merge --continue', 'git merge --quit'],
  },

  // git reset
  {
    name: 'reset --hard',
    want: 'deny',
    rule: 'reset-hard',
    commands: [
      'git reset --hard',
      'git reset --hard HEAD~1',
      'git reset --soft --hard',
      'git reset --ha origin/main',
      'git reset -q --hard',
    ],
  },
  {
    name: 'reset, other modes and paths',
    want: 'silent',
    commands: [
      'git reset',
      'git reset --soft HEAD~1',
      'git reset --mixed',
      'git reset --keep HEAD~1',
      'git reset --merge',
      'git reset -- file.txt',
      'git reset HEAD file.txt',
      'git reset --hard --soft',
    ],
  },

  // git clean
  {
    name: 'clean forced',
    want: 'deny',
    rule: 'clean-force',
    commands: [
      'git clean -f',
      'git clean -fd',
      'git clean -xdf',
      'git clean --force -d',
      'git clean -ff',
      'git -c clean.requireForce=false clean -d',
    ],
  },
  {
    name: 'clean dry run or interactive',
    want: 'silent',
    commands: [
      'git clean -n',
      'git clean -fn',
      'git clean -nf',
      'git clean --dry-run -f',
      'git clean -fdi',
      'git clean -d',
      'git clean -e -f',
    ],
  },

  // git checkout / git switch
  {
    name: 'checkout forced or whole tree',
    want: 'deny',
    rule: 'discard',
    commands: [
      'git checkout -f main',
      'git checkout --force main',
      'git checkout .',
      'git checkout -- .',
      'git checkout HEAD -- ./',
      'git checkout :/',
      "git checkout -- ':(top)'",
      'git checkout -- ..',
      'git checkout --ours -- .',
      'git checkout -qf main',
    ],
  },
  {
    name: 'checkout a branch or named paths',
    want: 'silent',
    commands: [
      'git checkout main',
      'git checkout -b feature',
      'git checkout -B feature origin/feature',
      'git checkout -- src/a.ts',
      'git checkout HEAD~1 -- README.md',
      'git checkout -',
      'git checkout -b .',
    ],
  },
  {
    name: 'switch forced',
    want: 'deny',
    rule: 'discard',
    commands: ['git switch -f main', 'git switch --discard-changes main', 'git switch --force main'],
  },
  {
    name: 'switch and create',
    want: 'silent',
    commands: ['git switch main', 'git switch -c feature', 'git switch -C feature', 'git switch -'],
  },

  // git restore
  {
    name: 'restore the whole tree',
    want: 'deny',
    rule: 'discard',
    commands: [
      'git restore .',
      'git restore -- .',
      'git restore --worktree .',
      'git restore --staged --worktree .',
      'git restore -SW :/',
      'git restore -s HEAD~1 .',
    ],
  },
  {
    name: 'restore staged only or named paths',
    want: 'silent',
    commands: [
      'git restore --staged .',
      'git restore -S .',
      'git restore src/a.ts',
      'git restore --source HEAD~1 README.md',
    ],
  },

  // gh pr merge
  {
    name: 'gh pr merge',
    want: 'deny',
    rule: 'pr-merge',
    commands: [
      'gh pr merge 12',
      'gh pr merge --squash --delete-branch',
      'gh pr merge -R owner/repo 12',
      'GH_REPO=owner/repo gh pr merge 12',
      'gh pr merge https://github.com/owner/repo/pull/12',
    ],
  },
  {
    name: 'gh pr merge --disable-auto, and other gh',
    want: 'silent',
    commands: [
      'gh pr merge --disable-auto 12',
      'gh pr view 12',
      'gh pr create --title merge',
      'gh repo view',
    ],
  },
  {
    name: 'a retargeted gh pr merge, from an unmanaged folder (silent everywhere else)',
    want: 'silent',
    cwd: '/outside/work',
    commands: [
      'gh pr merge --repo owner/repo 7',
      'gh pr merge https://github.com/owner/repo/pull/7',
      'GH_REPO=owner/repo gh pr merge 7',
      'gh pr merge -Rowner/repo 7',
    ],
  },
  {
    name: 'a plain gh pr merge, from an unmanaged folder',
    want: 'silent',
    cwd: '/outside/work',
    commands: ['gh pr merge 7'],
  },

  // reads and other subcommands
  {
    name: 'reads and other subcommands',
    want: 'silent',
    commands: [
      'git status',
      'git log --oneline',
      'git diff HEAD',
      'git fetch origin',
      'git branch -D old',
      'git stash',
      'git add -A',
      'git rebase main',
      'git show HEAD:commit',
      'git log --grep=push',
      'echo git push',
      'printf "%s" "git commit"',
      'git help commit',
      'git',
    ],
  },

  // git's global options
  {
    name: 'global options before a write',
    want: 'deny',
    commands: [
      'git -C . commit -m x',
      'git -c user.name=x commit -m x',
      'git --git-dir=.git commit -m x',
      'git --git-dir .git push',
      'git --work-tree . --git-dir .git push',
      'git --namespace=ns push',
      'git --namespace ns push',
      'git --config-env core.editor=EDITOR commit',
      'git --config-env=core.editor=EDITOR commit',
      'git --attr-source HEAD commit',
      'git --attr-source=HEAD commit',
      'git --shallow-file x push',
      'git --exec-path=/usr/lib/git-core push',
      'git -p --no-pager --bare --no-replace-objects --literal-pathspecs push',
      'git -P --no-optional-locks --glob-pathspecs --icase-pathspecs push',
      'git --paginate --noglob-pathspecs --no-lazy-fetch --no-advice push',
    ],
  },
  {
    name: 'a global option that eats the write word, or ends git',
    want: 'silent',
    commands: [
      'git -C push status',
      'git -c push status',
      'git --git-dir push status',
      'git --exec-path push',
      'git --version push',
      'git --help push',
      'git -x push',
      'git -pC . status',
      'git --html-path commit',
    ],
  },

  // launderings of the head
  {
    name: 'spellings of git',
    want: 'deny',
    commands: [
      '\\git push',
      '"git" push',
      "'git' commit -m x",
      '/usr/bin/git push',
      'g\\it push',
      'g""it push',
      '/usr/lib/git-core/git-push origin main',
      'git-commit -m x',
    ],
  },
  {
    name: 'launchers',
    want: 'deny',
    commands: [
      'sudo -u x git push',
      'sudo git push',
      'env -i git push',
      'env FOO=1 git commit -m x',
      'timeout -s KILL 5 git push',
      'timeout 10 git commit -m x',
      'nohup git push &',
      'nice -n 5 git push',
      'stdbuf -oL git push',
      'time git push',
      'command git push',
      'builtin git push',
      'exec git push',
      'echo main | xargs git push origin',
      'xargs git push < branches.txt',
      'find . -name x -exec git checkout -f {} \\;',
      'find . -exec git push \\;',
      'find . -exec git checkout -f {} +',
      'git ls-files -z | xargs -0 git push origin',
      'find . -name x -exec true \\; -exec git push \\;',
      'sudo find . -execdir git status {} + -ok git commit -m x \\;',
    ],
  },
  {
    name: 'nested strings and substitutions',
    want: 'deny',
    commands: [
      "bash -lc 'git push'",
      'env -S "git push origin main"',
      'bash -o pipefail -c "git push | tee log"',
      "sh -c 'git commit -m x'",
      'zsh -c "git push"',
      'eval "git commit -m x"',
      "eval 'git push'",
      'echo $(git commit -m x)',
      'echo "`git push`"',
      'echo `git push`',
      'cat <(git push)',
      '(git push)',
      '{ git push; }',
      'if true; then git push; fi',
      'for b in a; do git push origin "$b"; done',
      'while false; do git commit -m x; done',
      'deploy() { git push; }',
      'make && git push',
      'git status | git push',
      'sudo bash -c "git push"',
      'bash -c \'bash -c "git push"\'',
      "find . -exec sh -c 'git push' \\;",
      "find . -exec true \\; -exec sh -c 'git push' \\;",
      `bash -c "eval 'git push'"`,
      'x=$(git commit -m x)',
      'cat <<EOF\n$(git push)\nEOF',
    ],
  },
  {
    name: 'git only mentioned',
    want: 'silent',
    commands: [
      'cat <<EOF\ngit push --force\nEOF',
      "cat <<'EOF'\n$(git push)\nEOF",
      'echo "git commit -m x"',
      "grep -r 'git push' docs",
      '# git push',
      'npm run git-hooks',
      'bash -c "git status"',
      'eval "git log"',
    ],
  },

  // the effective directory
  {
    name: 'cd into a managed repository from an unmanaged cwd',
    want: 'deny',
    cwd: '/outside/work',
    commands: [
      'cd /repos/managed && git push',
      'cd /repos/managed; git commit -m x',
      'cd ../../repos/managed && git push',
      'cd /repos/managed/sub/deep && git push',
      'git -C /repos/managed push',
      'git -C /repos -C managed push',
      'cd /repos && git -C managed push',
      '(cd /repos/managed && git push)',
      'cd -P /repos/managed && git push',
    ],
  },
  {
    name: 'cd out of a managed repository',
    want: 'silent',
    commands: [
      'cd /outside/work && git push',
      'cd /repos/plain && git commit -m x',
      'git -C /repos/plain push',
      'git -C /outside push',
      '(cd /outside) && cd /repos/plain && git push',
    ],
  },
  {
    name: 'a cd that does not move the writing shell',
    want: 'silent',
    cwd: '/outside/work',
    commands: [
      '(cd /repos/managed) && git push',
      'cd /repos/managed | git push',
      'cd /repos/managed & git push',
      '$(cd /repos/managed) && git push',
      'cd "$REPO" && git push',
      'git push && cd /repos/managed',
    ],
  },
  {
    name: 'a sub-folder of a managed repository',
    want: 'deny',
    cwd: '/repos/managed/sub/deep',
    commands: ['git commit -m from-deep'],
  },
  {
    name: 'a plain repository and no repository',
    want: 'silent',
    cwd: '/repos/plain',
    commands: ['git push --force', 'git reset --hard', 'gh pr merge 3'],
  },

  // git init earlier on the line
  {
    name: 'git init first',
    want: 'silent',
    commands: [
      'git init fresh && cd fresh && git commit -m first',
      'git init && git commit --allow-empty -m x',
      'git init x; bash -c "git push"',
    ],
  },
  {
    name: 'git init after the write',
    want: 'deny',
    commands: ['git commit -m x && git init y', 'git init && gh pr merge 3'],
  },

  // the profile narrows the class
  {
    name: 'a profile that denies only pushes: push',
    want: 'deny',
    rule: 'push',
    cwd: '/repos/narrow',
    commands: ['git push origin main'],
  },
  {
    name: 'a profile that denies only pushes: the rest',
    want: 'silent',
    cwd: '/repos/narrow',
    commands: ['git commit -m narrow', 'git reset --hard HEAD', 'gh pr merge 4'],
  },
];
