import { describe, expect, test } from 'vitest';
import { evaluate } from '../src/evaluate.ts';
import { bashCall, fakeContext, standardWorld } from './fake-context.ts';

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
  // git's own command-valued config and environment, and the subcommands that run commands
  { deny: "git -c core.fsmonitor='git push' status", pass: 'git -c core.fsmonitor=true status' },
  { deny: "git -c diff.external='git commit -m x' diff", pass: "git -c diff.external='difft' diff" },
  { deny: "GIT_EXTERNAL_DIFF='git push' git diff", pass: 'GIT_EXTERNAL_DIFF=difft git diff' },
  { deny: "GIT_EDITOR='git push; true' git tag -a t", pass: 'GIT_EDITOR=true git tag -a t' },
  { deny: "git -c core.editor='git push' tag -a t", pass: 'git -c core.editor=vim tag -a t' },
  {
    deny: "GIT_SEQUENCE_EDITOR='git push' git rebase --edit-todo",
    pass: "GIT_SEQUENCE_EDITOR='git push' git status", // status never runs the sequence editor
  },
  { deny: "git -c core.sshCommand='git push; ssh' fetch", pass: "git -c core.sshCommand='ssh -i k' fetch" },
  { deny: "git -c credential.helper='!git push' fetch", pass: 'git -c credential.helper=store fetch' },
  { deny: "git -c alias.p='!git push' p", pass: "git -c alias.p='!git status' p" },
  { deny: 'git submodule foreach git push', pass: 'git submodule foreach git status' },
  { deny: "git bisect run sh -c 'git commit -m x'", pass: 'git bisect run make test' },
  // exported earlier on the line: export, declare -x, typeset -x, set -a / set -o allexport
  { deny: "export GIT_EDITOR='git push'; git tag -a t", pass: 'export GIT_EDITOR=true; git tag -a t' },
  // only what the subcommand can run: `git log` never starts an editor
  { deny: "export EDITOR='git push'; git notes add", pass: "export EDITOR='git push'; git log" },
  {
    deny: "declare -x GIT_EXTERNAL_DIFF='git push'; git diff",
    pass: "declare GIT_EXTERNAL_DIFF='git push'; git diff", // not exported: git never sees it
  },
  { deny: "typeset -x GIT_PAGER='git push'; git log", pass: "(typeset -x GIT_PAGER='git push'); git log" },
  {
    deny: "set -a; GIT_EDITOR='git push'; git tag -a t",
    pass: "set -a; set +a; GIT_EDITOR='git push'; git tag -a t",
  },
  {
    deny: "set -o allexport; VISUAL='git commit -m x'; git tag -a t",
    pass: "VISUAL='git commit -m x'; git tag -a t",
  },
  {
    deny: "export EDITOR='git push'; sh -c 'git tag -a t'",
    pass: "EDITOR='git push'; sh -c 'git tag -a t'", // not exported: the new shell's git never sees it
  },
  // vim and ex in Ex mode read their commands from their input
  {
    deny: "vim -es f <<'EOF'\n!git push\nq\nEOF",
    pass: "vim -es f <<'EOF'\n%s/git push/x/\nwq\nEOF",
  },
  { deny: "ex -s f <<< 'silent !git commit -m x'", pass: "ex -s f <<< 'g/git commit/d'" },
  { deny: "printf '!git push\\n' | vim -e -s f", pass: "printf '!git push\\n' > notes.txt" },
  // out of Ex mode vim runs the keys it reads from an input that is not a terminal: a `:` line is
  // an ex command (`vim -` and nvim read that input as the text they edit)
  { deny: "echo ':!git commit -qm x' | vim f", pass: "echo ':wq' | vim f" },
  { deny: "printf ':!git push\\n' | view f", pass: "printf ':!git push\\n' | vim -" },
  { deny: "vim f <<'EOF'\n:silent !git push\n:q\nEOF", pass: "vim f <<'EOF'\n:%s/git push/x/\n:wq\nEOF" },
  { deny: "vi f <<< ':!git commit -m x'", pass: "nvim f <<< ':!git commit -m x'" },
  // gvim is vim; rvim, rview and vim -Z are restricted: no shell command runs
  { deny: "gvim -f -c '!git commit -m x' f", pass: "rvim -c '!git commit -m x' f" },
  { deny: "gvim -f f <<< ':!git push'", pass: "rview f <<< ':!git push'" },
  { deny: "vim -es -c '!git push' f", pass: "vim -Z -es -c '!git push' f" },
  // keys from a literal input are read; /dev/null holds none
  { deny: "vim f <<< ':!git push' && git status", pass: 'vim f < /dev/null && git status' },
  // `|` ends an ex command: a `!` after it runs a shell
  { deny: "vim -c 'set nu | !git push' f", pass: "vim -c 'set nu | !git status' f" },
  // :normal with keys that run nothing external
  {
    deny: "vim -c '!git push' -c 'norm dd' f",
    pass: "vim -c 'norm dd' -c 'normal! ggx' -c wq f && git status",
  },
  // a variable exported earlier stays exported when a later plain assignment changes it
  {
    deny: "export VISUAL; VISUAL='git push'; git tag -a t",
    pass: "export VISUAL; unset VISUAL; VISUAL='git push'; git tag -a t", // unset clears the export
  },
  {
    deny: "export GIT_EDITOR=vim; GIT_EDITOR='git push'; git tag -a t",
    pass: "export GIT_EDITOR='git push'; GIT_EDITOR=vim; git tag -a t",
  },
  {
    deny: "export EDITOR; declare EDITOR='git push'; git tag -a t",
    pass: 'export EDITOR; EDITOR=true; git tag -a t',
  },
  {
    deny: "export EDITOR; f() { local EDITOR='git push'; git tag -a t; }; f",
    pass: "f() { local EDITOR='git push'; git tag -a t; }; f", // local of a name not exported
  },
  // config handed in GIT_CONFIG_COUNT / GIT_CONFIG_KEY_n / GIT_CONFIG_VALUE_n, judged as `-c` is
  {
    deny: "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.editor GIT_CONFIG_VALUE_0='git push' git tag -a t",
    pass: 'GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.editor GIT_CONFIG_VALUE_0=vim git tag -a t',
  },
  {
    deny: 'export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.editor GIT_CONFIG_VALUE_0=\'sh -c "git push"\'; git tag -a t',
    pass: "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.editor GIT_CONFIG_VALUE_0='git push'; git tag -a t", // not exported
  },
  {
    deny: "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=diff.external GIT_CONFIG_VALUE_0='git push' git diff",
    pass: "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=diff.external GIT_CONFIG_VALUE_0='git push' git status",
  },
  {
    deny: "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0='git push' git status",
    pass: 'GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0=true git status',
  },
  {
    deny: "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.p GIT_CONFIG_VALUE_0='!git push' git p",
    pass: "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.p GIT_CONFIG_VALUE_0='!git status' git p",
  },
  {
    deny: 'GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.x GIT_CONFIG_VALUE_0=commit git x -m y',
    pass: 'GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.x GIT_CONFIG_VALUE_0=commit git -c alias.x=status x', // -c wins
  },
  {
    deny: "GIT_CONFIG_COUNT=2 GIT_CONFIG_KEY_0=user.name GIT_CONFIG_VALUE_0=a GIT_CONFIG_KEY_1=core.editor GIT_CONFIG_VALUE_1='git push' git tag -a t",
    pass: "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=user.name GIT_CONFIG_VALUE_0=a GIT_CONFIG_KEY_1=core.editor GIT_CONFIG_VALUE_1='git push' git tag -a t",
  },
  {
    deny: 'GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=clean.requireForce GIT_CONFIG_VALUE_0=false git clean -d',
    pass: 'GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=clean.requireForce GIT_CONFIG_VALUE_0=true git clean -d',
  },
  // chroot to this machine's own root, keeping the directory: git is this root's
  { deny: 'chroot --skip-chdir / git push', pass: 'chroot / git push' }, // chroot / moves to /
  {
    deny: "git filter-branch --tree-filter 'git push' HEAD",
    pass: "git filter-branch --tree-filter 'rm -f x' HEAD",
  },
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
  'git -c core.hooksPath=/tmp/hooks status', // hooks from a folder of the caller's choosing
  'git -c core.editor="$EDITOR_CMD" tag -a t',
  'git --config-env=core.pager=PAGER_CMD log',
  'GIT_EDITOR="$cmd" git tag -a t',
  'git rebase --exec "$check" --abort', // --abort writes nothing, but the string is unread
  'export GIT_EDITOR="$x"; git tag -a t', // exported, only known at run time
  "set -$opts; GIT_EDITOR='git push'; git tag -a t", // set -a or not: the line does not show
  // config handed through the environment that names a command-valued key (or cannot be read)
  'GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.editor GIT_CONFIG_VALUE_0="$e" git tag -a t',
  'GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.x GIT_CONFIG_VALUE_0="$v" git x',
  'GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.hooksPath GIT_CONFIG_VALUE_0=/tmp/h git commit --dry-run',
  "GIT_CONFIG_COUNT=2 GIT_CONFIG_KEY_0=core.editor GIT_CONFIG_VALUE_0='git push' git x", // KEY_1 missing
  `export GIT_CONFIG_PARAMETERS="'core.pager'='git push'"; git log`,
  'GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0="$k" GIT_CONFIG_VALUE_0=x git log',
  'vim -es f <<EOF\n!$git_command\nEOF',
  "vim -es f <<'EOF'\nr !git push\nEOF", // :r !cmd reads a command's output: not followed
  // keys vim reads that are not a `:` line in Normal mode, or only known at run time
  "echo '!!git push' | vim f", // a Normal-mode filter
  "printf 'ihello\\n:!git push\\n' | vim f", // Insert mode or not: the keys do not show
  'cat keys.txt | vim f && git status',
  'export VISUAL; VISUAL="$(which vim)"; git tag -a t',
  'export GIT_PAGER="$p"; git status', // a pager runs wherever git's output is a terminal
  // keys or an Ex script vim reads from a file the gate cannot see
  'vim f < keys.txt && git status',
  'ex -s f < script.ex; git status',
  // :normal keys that filter through a shell or type a `:` line; :execute's built string
  "vim -c $'norm !!git commit -qam x\\r' f",
  "vim -c 'normal! :!git push' f",
  'vim -c \'exe "!git push"\' f',
  'ex -s f <<< \'execute "!git push"\'',
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

// Step 3: a read subcommand is judged whatever its options and environment carry. A command git
// runs matters only where the subcommand can run it (an editor: commit, tag, notes, merge…; an
// external diff: the diff family; an ssh command: fetch, push…); an alias may run anything.
const relevance: { refused: string; judged: string }[] = [
  { refused: 'export GIT_EDITOR="$(cmd)"; git tag -a t', judged: 'export GIT_EDITOR="$(cmd)"; git status' },
  {
    refused: 'export EDITOR="$(which vim)"; git notes add',
    judged: 'export EDITOR="$(which vim)"; git status',
  },
  { refused: 'export VISUAL="$v"; git merge --abort', judged: 'export VISUAL="$v"; git log --oneline' },
  { refused: 'export EDITOR="$e"; git ci', judged: 'export EDITOR="$e"; git diff' },
  {
    refused: 'export GIT_EXTERNAL_DIFF="$(x)"; git log -p',
    judged: 'export GIT_EXTERNAL_DIFF="$(x)"; git status',
  },
  {
    refused: 'export GIT_SSH_COMMAND="$ssh"; git fetch',
    judged: 'export GIT_SSH_COMMAND="$ssh"; git branch -a',
  },
  { refused: 'GIT_EDITOR="$e" git commit --dry-run', judged: 'GIT_EDITOR="$e" git status' },
  {
    refused: 'export GIT_SEQUENCE_EDITOR="$s"; git rebase --edit-todo',
    judged: 'export GIT_SEQUENCE_EDITOR="$s"; git tag -a t',
  },
  { refused: 'git -c core.editor="$e" notes add', judged: 'git -c core.editor="$e" log' },
  { refused: 'git -c diff.external="$d" show', judged: 'git -c diff.external="$d" fetch' },
  { refused: 'git -c core.sshCommand="$s" ls-remote', judged: 'git -c core.sshCommand="$s" rev-parse HEAD' },
  {
    refused: 'GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.editor GIT_CONFIG_VALUE_0="$e" git tag -a t',
    judged: 'GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.editor GIT_CONFIG_VALUE_0="$e" git status',
  },
];

describe('what git runs for a subcommand is judged; what it cannot run is not asked', () => {
  test.for(relevance)('$refused', ({ refused, judged }) => {
    expect(evaluate(bashCall(refused), fakeContext(strict)).kind).toBe('refuse');
    expect(evaluate(bashCall(refused), fakeContext()).kind).not.toBe('deny');
    expect(evaluate(bashCall(judged), fakeContext(strict)).kind).toBe('none');
  });
});

// Their twins: config through the environment that runs no command is a read as before.
test.for([
  'GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=user.name GIT_CONFIG_VALUE_0=x git tag -a t',
  `export GIT_CONFIG_PARAMETERS="'user.name'='x'"; git log`,
  'export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=color.ui GIT_CONFIG_VALUE_0=never; git diff',
])('%s: passes in strict mode', (command) => {
  expect(evaluate(bashCall(command), fakeContext(strict)).kind).toBe('none');
});

// chroot NEWROOT: git, its config and the repository it finds are another root's. A write or an
// unreadable line there is "cannot judge" where NEWROOT is managed (git starts at NEWROOT's
// top), never a judged pass; a read stays a read, and an unmanaged NEWROOT is silent.
describe('a git run inside another root is "cannot judge"', () => {
  test.for([
    'chroot /repos/managed git commit -m x',
    "chroot /repos/managed sh -c 'git push'",
    'chroot --userspec=0:0 /repos/managed/sub git push',
  ])('%s: refused in strict mode, never denied as judged', (command) => {
    expect(evaluate(bashCall(command, '/repos/plain'), fakeContext(strict)).kind).toBe('refuse');
    expect(['none', 'cannotJudge']).toContain(
      evaluate(bashCall(command, '/repos/plain'), fakeContext()).kind,
    );
  });
  test.for([
    'chroot /repos/managed git status',
    'chroot /outside/work git commit -m x',
    'chroot /missing git commit -m x', // chroot fails: nothing runs
  ])('%s: passes in strict mode', (command) => {
    expect(evaluate(bashCall(command, '/repos/plain'), fakeContext(strict)).kind).toBe('none');
  });
});

// Step 8: git's aliases, read from the config files git reads (the repository's, the user's XDG
// and ~/.gitconfig, the system's; includes followed), from `-c`, and from `git config` on the line.
const aliasWorld = {
  ...standardWorld,
  files: {
    ...standardWorld.files,
    '/repos/managed/.git/config':
      '[core]\n\tbare = false\n[alias]\n\tci = commit\n\tst = status\n[include]\n\tpath = ../extra.gitconfig\n',
    '/repos/managed/extra.gitconfig':
      '[alias]\n  sync = "!git pull --rebase && git push"\n  lg = log --oneline\n',
    '/home/u/.gitconfig': '[alias]\n\tpp = !git push origin HEAD # push it\n\tshow-it = !git status\n',
    '/home/u/.config/git/config': '[alias]\n\tcm = commit -m\n',
  },
};
const home = { HOME: '/home/u' };

const aliasRows: { deny: string; pass: string }[] = [
  { deny: 'git ci -m x', pass: 'git st' },
  { deny: 'git sync', pass: 'git lg' },
  { deny: 'git pp', pass: 'git show-it' },
  { deny: 'git cm x', pass: 'git unknown-tool x' },
  { deny: 'git -c alias.x=commit x -m y', pass: 'git -c alias.x=status x' },
  { deny: 'git -c alias.x=ci x -m y', pass: 'git -c alias.x=st x' }, // an alias of an alias
  { deny: 'git config alias.c2 commit; git c2 -m x', pass: 'git config alias.s2 status && git s2' },
  {
    deny: "git config --global alias.p2 '!git push'; git p2",
    pass: "git config set alias.p2 '!git log'; git p2",
  },
];

describe('an alias is judged as what it expands to', () => {
  test.for(aliasRows)('$deny', ({ deny, pass }) => {
    expect(evaluate(bashCall(deny), fakeContext(home, aliasWorld)).kind).toBe('deny');
    expect(evaluate(bashCall(pass), fakeContext({ ...home, ...strict }, aliasWorld)).kind).toBe('none');
  });
  // git reads the user's file from GIT_CONFIG_GLOBAL alone when it is set, the system's from
  // GIT_CONFIG_SYSTEM, none under GIT_CONFIG_NOSYSTEM: so does the gate.
  const systemWorld = {
    ...standardWorld,
    files: { ...standardWorld.files, '/etc/gitconfig': '[alias]\n\tsc = commit\n' },
  };
  test.for([
    [
      'the XDG folder XDG_CONFIG_HOME names',
      { ...home, XDG_CONFIG_HOME: '/home/u/xdg' },
      'git xc -m x',
      true,
    ],
    [
      '~/.config when XDG_CONFIG_HOME names another',
      { ...home, XDG_CONFIG_HOME: '/home/u/xdg' },
      'git cm x',
      false,
    ],
    [
      'GIT_CONFIG_GLOBAL alone',
      { ...home, GIT_CONFIG_GLOBAL: '/home/u/xdg/git/config' },
      'git xc -m x',
      true,
    ],
    [
      'not ~/.gitconfig under GIT_CONFIG_GLOBAL',
      { ...home, GIT_CONFIG_GLOBAL: '/home/u/xdg/git/config' },
      'git pp',
      false,
    ],
    ['the system file', home, 'git sc -m x', true],
    ['no system file under GIT_CONFIG_NOSYSTEM', { ...home, GIT_CONFIG_NOSYSTEM: '1' }, 'git sc -m x', false],
    [
      'GIT_CONFIG_SYSTEM names it',
      { ...home, GIT_CONFIG_SYSTEM: '/home/u/xdg/git/config' },
      'git xc -m x',
      true,
    ],
  ] as const)('%s', ([, env, command, denies]) => {
    const world = {
      ...aliasWorld,
      files: {
        ...aliasWorld.files,
        ...systemWorld.files,
        '/home/u/xdg/git/config': '[alias]\n\txc = commit\n',
      },
    };
    expect(evaluate(bashCall(command), fakeContext(env, world)).kind).toBe(denies ? 'deny' : 'none');
  });
  test('control: without the config files the same words pass', () => {
    expect(evaluate(bashCall('git ci -m x'), fakeContext(home)).kind).toBe('none');
  });
  test('an alias that cannot be read is "cannot judge"', () => {
    expect(evaluate(bashCall('git -c "alias.x=$v" x'), fakeContext(strict)).kind).toBe('refuse');
    const looping = {
      ...aliasWorld,
      files: { ...aliasWorld.files, '/home/u/.gitconfig': '[alias]\n\ta = b\n\tb = a\n' },
    };
    expect(evaluate(bashCall('git a'), fakeContext({ ...home, ...strict }, looping)).kind).toBe('refuse');
  });
});
