// The rows classes.mjs times: for each class of issue 24 a few representative commands, beside a
// plain short command of each guard. `cwd` is the managed repository unless a row says `outside`
// (the folder beside it); `label` stands in for a generated command too long to print.
import { join } from 'node:path';

const message = 'x'.repeat(80);
/** A commit message of about 22 KB in a heredoc (the old bound was 16,384 characters). */
const heredocCommit = `git commit -F - <<'EOF'\n${Array.from({ length: 280 }, () => message).join('\n')}\nEOF`;
/** An `-m` of 18 KB. */
const longMessage = `git commit -m "${'y'.repeat(18_000)}"`;
/** A `git add` of 1,300 files, then a commit (the old bound was 6,000 words, 600 commands). */
const manyFiles = `git add ${Array.from({ length: 1300 }, (_, i) => `src/file-${i}.ts`).join(' ')} && git commit -m x`;
/** 65 nested subshells in under 300 bytes (the old bound was 64 frames). */
const deepSubshells = `${'( '.repeat(65)}git commit -m x${' )'.repeat(65)}`;

/** A row's command with where and how it runs: in the background, from the folder beside, or under a label. */
const background = (command) => ({ command, background: true });
const outside = (command) => ({ command, outside: true });
const labelled = (command, label) => ({ command, label });

/** Each guard's classes, each with its commands (a plain short command first). */
const classes = {
  'exit-status-guard': {
    'plain short command': ['ls -la', 'make check', 'make check | tail -5'],
    'explicit exit after background': [
      background('make check; exit 0'),
      background('make check > log 2>&1; echo "EXIT=$?"'),
    ],
    'PIPESTATUS rewrite': ['make check | tee build.log; echo "${PIPESTATUS[0]}"'],
    'registry: gate script by path': ['php path/to/artisan test | tail -3'],
    'registry: expo': ['npx expo lint 2>&1 | tail -3'],
    'registry: node --check': ['node --check src/index.js | tail -2'],
    'registry: nix': ['nix flake check 2>&1 | tail -3', 'nix-instantiate --parse default.nix | tail -2'],
    'registry: generators': ['pnpm prisma generate | tail -2 && git push'],
    ssh: ["ssh host 'make check | tail -3'", "ssh -p 2222 host 'cd app && npm test'; git push"],
    'background compound status': [
      background('if [ -f Makefile ]; then make check; else npm test; fi'),
      background('make check; x=$(date)'),
    ],
  },
  'git-write-gate': {
    'plain short command': ['ls -la', 'git status', 'git commit -m x'],
    'directory moves': [
      outside('set -P; cd to-repo-sub/.. && git commit -am x'),
      outside('shopt -s lastpipe; echo | cd ../repo; git commit -am x'),
      outside('cd ../repo; cd ../outside; cd ~-; git commit -am x'),
    ],
    bounds: [
      labelled(heredocCommit, 'git commit -F - <<EOF (22 KB message)'),
      labelled(longMessage, 'git commit -m "<18 KB>"'),
      labelled(manyFiles, 'git add <1,300 files> && git commit -m x'),
      labelled(deepSubshells, '65 nested subshells around git commit'),
    ],
    aliases: ['git ci -m x', 'git config alias.sv commit; git sv -m x'],
    'config-run command lines': [
      "git -c core.fsmonitor='git push' status",
      'GIT_EDITOR="git push" git commit',
      "git rebase -x 'git push' main",
      'export EDITOR="$(which vim)"; git status',
      'export VISUAL; VISUAL="git push"; git commit',
      "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.ci GIT_CONFIG_VALUE_0='!git push' git ci",
    ],
    launchers: [
      'runuser -u dev -- git commit -am x',
      'fakeroot git commit -am x',
      'hash -p /usr/bin/git g; g commit -am x',
    ],
    'tool escapes': [
      "vim -c '!git commit -am x' -c q",
      "sed -n '1e git push' notes.txt",
      "npm exec -c 'git push'",
      "echo ':!git commit -qam x' | vim notes.txt",
      "ssh -o ProxyCommand='git commit -qam x' host true",
    ],
    'repository discovery': [
      outside('GIT_DIR=../repo/.git GIT_WORK_TREE=. git commit -am x'),
      outside('git --git-dir=../repo/.git --work-tree=. commit -am x'),
    ],
    ssh: ["ssh host 'git push'", "ssh host 'git pull' && git commit -am x"],
    'new write routes': [
      'git pull --rebase origin main',
      'git update-ref refs/heads/main HEAD~1',
      'gh api -X PUT repos/o/r/pulls/7/merge',
    ],
  },
};

/** Every row: guard, class, command, and where it runs (the managed repository, or the folder beside it). */
export function classRows(repo) {
  const beside = join(repo, '..', 'outside');
  return Object.entries(classes).flatMap(([guard, byClass]) =>
    Object.entries(byClass).flatMap(([cls, commands]) =>
      commands.map((each) => {
        const row = typeof each === 'string' ? { command: each } : each;
        const { outside: fromBeside, ...rest } = row;
        return { guard, class: cls, ...rest, ...(fromBeside ? { cwd: beside } : {}) };
      }),
    ),
  );
}
