import { describe, expect, test } from 'vitest';
import { evaluate } from '../src/evaluate.ts';
import { bashCall, fakeContext } from './fake-context.ts';

// Step 8: launchers outside the old list, names bound to git on the line, and the shell escapes of
// editors and stream tools (shell-segments' launcher and runner tables). The deny rows are run
// for real in real-writes.test.ts; here each has a twin that passes, and what cannot be read is
// "cannot judge": refused in strict mode in a managed repository, silent elsewhere.

const strict = { TAGOUT_HOOKS_STRICT: '1' };

const rows: { deny: string; pass: string }[] = [
  { deny: 'runuser -u root -- git commit -m x', pass: 'runuser -u root -- git status' },
  { deny: "su -c 'git push' root", pass: "su -c 'git log' root" },
  { deny: 'chroot --skip-chdir / git commit -m x', pass: 'chroot / git status' },
  { deny: 'unshare -r git commit -m x', pass: 'unshare -r git diff' },
  { deny: 'fakeroot git commit -m x', pass: 'fakeroot git status' },
  { deny: 'prlimit --nofile=1024 git commit -m x', pass: 'prlimit -p 1 git commit -m x' },
  { deny: 'setpriv --reset-env git push', pass: 'setpriv -d git push' },
  { deny: 'hash -p /usr/bin/git g; g commit -m x', pass: 'hash -p /usr/bin/ls g; g commit -m x' },
  { deny: 'cp /usr/bin/git ./g && ./g commit -m x', pass: 'cp notes.txt ./g && ./g commit -m x' },
  { deny: 'ln -s "$(which git)" g; ./g push', pass: 'ln -s "$(which ls)" g; ./g push' },
  { deny: "vim -c '!git commit -m x' -c q", pass: "vim -c '!git status' -c q" },
  { deny: "vim +'silent !git push' +q f", pass: 'vim +10 -c wq f' },
  { deny: "ed -s f <<'EOF'\n!git push\nq\nEOF", pass: "ed -s f <<'EOF'\n!git status\nq\nEOF" },
  { deny: "sed -n '1e git commit -m x' f", pass: "sed -n 's/git commit/x/p' f" },
  { deny: "npm exec -c 'git push'", pass: "npm exec -c 'git status'" },
  { deny: "npx -c 'git commit -m x'", pass: "npx -c 'git log'" },
  { deny: 'watch -n 5 git push', pass: 'watch -n 5 git status' },
];

describe('each route to git is followed: the write denied, its twin passes', () => {
  test.for(rows)('$deny', ({ deny, pass }) => {
    expect(evaluate(bashCall(deny), fakeContext()).kind).toBe('deny');
    expect(evaluate(bashCall(pass), fakeContext(strict)).kind).toBe('none');
  });
});

// Where the nested line cannot be read: cannot judge (each mentions git: a line that does not is
// not git-looking, and no opinion in every mode).
const unreadable = [
  "sed 's/^/git /e' f", // the pattern space runs as a command
  "sed -n '1e' git-commands.txt", // each line runs as a command
  "vim -c 'call system(g:git)' f",
  "vim -c 'r !git push' f",
  'npm exec -c "$git_command"',
  'watch "$git_command"',
  'ed -s f <<EOF\n!$git_command\nEOF',
];

describe('a shell escape that cannot be read is "cannot judge"', () => {
  test.for(unreadable)(
    '%s: refused in strict mode where managed, silent unmanaged and by default',
    (command) => {
      expect(evaluate(bashCall(command), fakeContext(strict)).kind).toBe('refuse');
      expect(evaluate(bashCall(command, '/repos/plain'), fakeContext(strict)).kind).not.toBe('refuse');
      expect(['none', 'cannotJudge']).toContain(evaluate(bashCall(command), fakeContext()).kind);
    },
  );
});
