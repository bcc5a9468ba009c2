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

/** Every row: guard, class, command, and where it runs. */
export function classRows(repo) {
  const outside = join(repo, '..', 'outside');
  const esg = (cls, command, more = {}) => ({ guard: 'exit-status-guard', class: cls, command, ...more });
  const gwg = (cls, command, more = {}) => ({ guard: 'git-write-gate', class: cls, command, ...more });
  return [
    esg('plain short command', 'ls -la'),
    esg('plain short command', 'make check'),
    esg('plain short command', 'make check | tail -5'),
    esg('explicit exit after background', 'make check; exit 0', { background: true }),
    esg('explicit exit after background', 'make check > log 2>&1; echo "EXIT=$?"', { background: true }),
    esg('PIPESTATUS rewrite', 'make check | tee build.log; echo "${PIPESTATUS[0]}"'),
    esg('registry: gate script by path', 'php path/to/artisan test | tail -3'),
    esg('registry: expo', 'npx expo lint 2>&1 | tail -3'),
    esg('registry: node --check', 'node --check src/index.js | tail -2'),
    esg('registry: nix', 'nix flake check 2>&1 | tail -3'),
    esg('registry: nix', 'nix-instantiate --parse default.nix | tail -2'),
    esg('registry: generators', 'pnpm prisma generate | tail -2 && git push'),
    esg('ssh', "ssh host 'make check | tail -3'"),
    esg('ssh', "ssh -p 2222 host 'cd app && npm test'; git push"),

    gwg('plain short command', 'ls -la'),
    gwg('plain short command', 'git status'),
    gwg('plain short command', 'git commit -m x'),
    gwg('directory moves', 'set -P; cd to-repo-sub/.. && git commit -am x', { cwd: outside }),
    gwg('directory moves', 'shopt -s lastpipe; echo | cd ../repo; git commit -am x', { cwd: outside }),
    gwg('directory moves', 'cd ../repo; cd ../outside; cd ~-; git commit -am x', { cwd: outside }),
    gwg('bounds', heredocCommit, { label: 'git commit -F - <<EOF (22 KB message)' }),
    gwg('bounds', longMessage, { label: 'git commit -m "<18 KB>"' }),
    gwg('bounds', manyFiles, { label: 'git add <1,300 files> && git commit -m x' }),
    gwg('bounds', deepSubshells, { label: '65 nested subshells around git commit' }),
    gwg('aliases', 'git ci -m x'),
    gwg('aliases', 'git config alias.sv commit; git sv -m x'),
    gwg('config-run command lines', "git -c core.fsmonitor='git push' status"),
    gwg('config-run command lines', 'GIT_EDITOR="git push" git commit'),
    gwg('config-run command lines', "git rebase -x 'git push' main"),
    gwg('launchers', 'runuser -u dev -- git commit -am x'),
    gwg('launchers', 'fakeroot git commit -am x'),
    gwg('launchers', 'hash -p /usr/bin/git g; g commit -am x'),
    gwg('tool escapes', "vim -c '!git commit -am x' -c q"),
    gwg('tool escapes', "sed -n '1e git push' notes.txt"),
    gwg('tool escapes', "npm exec -c 'git push'"),
    gwg('repository discovery', 'GIT_DIR=../repo/.git GIT_WORK_TREE=. git commit -am x', { cwd: outside }),
    gwg('repository discovery', 'git --git-dir=../repo/.git --work-tree=. commit -am x', { cwd: outside }),
    gwg('ssh', "ssh host 'git push'"),
    gwg('ssh', "ssh host 'git pull' && git commit -am x"),
    gwg('new write routes', 'git pull --rebase origin main'),
    gwg('new write routes', 'git update-ref refs/heads/main HEAD~1'),
    gwg('new write routes', 'gh api -X PUT repos/o/r/pulls/7/merge'),
  ];
}
