import { spawnSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { parse } from '../src/parse.ts';
import type { CommandLine, ParseOptions } from '../src/types.ts';
import { child, type LineShape, lineShapeOf, top, unread } from './build.ts';

function topLine(command: string, options?: ParseOptions): CommandLine {
  const outcome = parse(command, options);
  if (!outcome.ok) throw new Error(`${command}: ${outcome.message}`);
  return outcome.value;
}

const treeOf = (command: string, options?: ParseOptions): LineShape => lineShapeOf(topLine(command, options));

/** A command and the tree it must give. */
const trees: [string, LineShape][] = [
  // positive control: a shell's string is a line of its own
  ["bash -lc 'git push'", top("bash -lc 'git push'", child('shell-string@0', 'git push'))],
  ['sh -c "a | b"', top('sh -c "a | b"', child('shell-string@0', 'a | b'))],
  [
    "bash -euo pipefail -c 'make check'",
    top("bash -euo pipefail -c 'make check'", child('shell-string@0', 'make check')),
  ],
  ["bash -c -- 'git push'", top("bash -c -- 'git push'", child('shell-string@0', 'git push'))],
  [
    "zsh -c 'git push' zsh-name arg",
    top("zsh -c 'git push' zsh-name arg", child('shell-string@0', 'git push')),
  ],
  ["/bin/dash -ec 'git push'", top("/bin/dash -ec 'git push'", child('shell-string@0', 'git push'))],
  ["sudo -u x bash -c 'git push'", top("sudo -u x bash -c 'git push'", child('shell-string@0', 'git push'))],
  ["timeout 5 ksh -c 'git push'", top("timeout 5 ksh -c 'git push'", child('shell-string@0', 'git push'))],
  // eval: the words joined by spaces
  ['eval "git commit"', top('eval "git commit"', child('eval@0', 'git commit'))],
  ['eval git commit -m wip', top('eval git commit -m wip', child('eval@0', 'git commit -m wip'))],
  ['eval \'git\' "commit"', top('eval \'git\' "commit"', child('eval@0', 'git commit'))],
  ['eval -- git push', top('eval -- git push', child('eval@0', 'git push'))],
  // env -S: the string, then each operand as one quoted word
  ["env -S 'git push' origin", top("env -S 'git push' origin", child('split-string@0', "git push 'origin'"))],
  [
    "env --split-string='git push'",
    top("env --split-string='git push'", child('split-string@0', 'git push')),
  ],
  ["env -S'git push' a", top("env -S'git push' a", child('split-string@0', "git push 'a'"))],
  // every find action, its words as written
  [
    "find . -exec true \\; -exec sh -c 'git push' \\;",
    top(
      "find . -exec true \\; -exec sh -c 'git push' \\;",
      child('find-exec@0', 'true'),
      child('find-exec@0', "sh -c 'git push'", child('shell-string@0', 'git push')),
    ),
  ],
  [
    'find . -name x -exec git add {} ;',
    top('find . -name x -exec git add {} ;', child('find-exec@0', 'git add {}')),
  ],
  [
    "find . -exec grep -l 'a b' {} + -print",
    top("find . -exec grep -l 'a b' {} + -print", child('find-exec@0', "grep -l 'a b' {}")),
  ],
  [
    'sudo find . -execdir git status {} + -ok git commit -m x \\;',
    top(
      'sudo find . -execdir git status {} + -ok git commit -m x \\;',
      child('find-exec@0', 'git status {}'),
      child('find-exec@0', 'git commit -m x'),
    ),
  ],
  ['find . -okdir rm {} \\; | wc -l', top('find . -okdir rm {} \\; | wc -l', child('find-exec@0', 'rm {}'))],
  ['find . -exec ls', top('find . -exec ls', child('find-exec@0', 'ls'))],
  // nested kinds inside each other, and a runner that is not the first segment
  [
    `bash -c "eval 'git push'"`,
    top(`bash -c "eval 'git push'"`, child('shell-string@0', "eval 'git push'", child('eval@0', 'git push'))),
  ],
  ["echo $(bash -c 'a | b') | tail", top("echo $(bash -c 'a | b') | tail", child('shell-string@1', 'a | b'))],
  [
    'make; env -S \'bash -c "git push"\'',
    top(
      'make; env -S \'bash -c "git push"\'',
      child('split-string@1', 'bash -c "git push"', child('shell-string@0', 'git push')),
    ),
  ],
  // a shell that reads its script from its input: a heredoc, a here-string, a literal producer piped in
  ['bash <<EOF\ngit push\nEOF', top('bash <<EOF\ngit push\nEOF', child('shell-input@0', 'git push\n'))],
  [
    "bash <<'EOF'\ngit push $x\nEOF",
    top("bash <<'EOF'\ngit push $x\nEOF", child('shell-input@0', 'git push $x\n')),
  ],
  [
    'sh <<EOF\ngit \\\npush \\$x \\\\y\nEOF',
    top('sh <<EOF\ngit \\\npush \\$x \\\\y\nEOF', child('shell-input@0', 'git push $x \\y\n')),
  ],
  [
    'bash <<-EOF\n\tgit push\n\tEOF',
    top('bash <<-EOF\n\tgit push\n\tEOF', child('shell-input@0', 'git push\n')),
  ],
  ["sh <<< 'git push'", top("sh <<< 'git push'", child('shell-input@0', 'git push\n'))],
  ["bash -s <<< 'git push' -- a", top("bash -s <<< 'git push' -- a", child('shell-input@0', 'git push\n'))],
  ["echo 'git push' | sh", top("echo 'git push' | sh", child('shell-input@1', 'git push\n'))],
  ['echo -n git push | bash -s', top('echo -n git push | bash -s', child('shell-input@1', 'git push'))],
  [
    "printf '%s\\n' 'git commit -m x' 'git push' | bash",
    top(
      "printf '%s\\n' 'git commit -m x' 'git push' | bash",
      child('shell-input@1', 'git commit -m x\ngit push\n'),
    ),
  ],
  ["printf 'git push\\n' | zsh", top("printf 'git push\\n' | zsh", child('shell-input@1', 'git push\n'))],
  [
    "cat <<'EOF' | bash\ngit push\nEOF",
    top("cat <<'EOF' | bash\ngit push\nEOF", child('shell-input@1', 'git push\n')),
  ],
  ['bash <(echo git push)', top('bash <(echo git push)', child('shell-input@0', 'git push\n'))],
  [
    "bash /dev/stdin <<< 'git push'",
    top("bash /dev/stdin <<< 'git push'", child('shell-input@0', 'git push\n')),
  ],
  // source / . of its input or a process substitution: a line run in the current shell
  ["source <(echo 'git push')", top("source <(echo 'git push')", child('sourced@0', 'git push\n'))],
  [". /dev/stdin <<< 'git push'", top(". /dev/stdin <<< 'git push'", child('sourced@0', 'git push\n'))],
  ["echo 'git push' | . /dev/stdin", top("echo 'git push' | . /dev/stdin", child('sourced@1', 'git push\n'))],
  // BSD script's command words
  [
    'script -q /dev/null git push',
    top('script -q /dev/null git push', child('script-command@0', 'git push')),
  ],
  [
    'script -q -t 0 out.log git push',
    top('script -q -t 0 out.log git push', child('script-command@0', 'git push')),
  ],
  // ssh's remote command: its words after the options and the destination, joined by spaces
  [
    "ssh host 'make check | tail'",
    top("ssh host 'make check | tail'", child('remote-command@0', 'make check | tail')),
  ],
  [
    "ssh -p 2222 -i ~/.ssh/id -o StrictHostKeyChecking=no user@host 'cd app && npm test'",
    top(
      "ssh -p 2222 -i ~/.ssh/id -o StrictHostKeyChecking=no user@host 'cd app && npm test'",
      child('remote-command@0', 'cd app && npm test'),
    ),
  ],
  [
    'ssh -tt -p22 -J bastion host git status',
    top('ssh -tt -p22 -J bastion host git status', child('remote-command@0', 'git status')),
  ],
  [
    "ssh -- host make check '|' tail",
    top("ssh -- host make check '|' tail", child('remote-command@0', 'make check | tail')),
  ],
  [
    "ssh -l me -F cfg host 'git push'",
    top("ssh -l me -F cfg host 'git push'", child('remote-command@0', 'git push')),
  ],
  ['ssh "$HOST" uptime', top('ssh "$HOST" uptime', child('remote-command@0', 'uptime'))],
  ['ssh host "$cmd"', top('ssh host "$cmd"', unread('remote-command@0', 'dynamic'))],
  // ssh's ProxyCommand / LocalCommand run here, through this machine's shell (issue 24)
  [
    "ssh -o ProxyCommand='git commit -qam x' host true",
    top(
      "ssh -o ProxyCommand='git commit -qam x' host true",
      child('tool-command@0', 'git commit -qam x'),
      child('remote-command@0', 'true'),
    ),
  ],
  [
    "ssh -oProxyCommand='git push' host",
    top("ssh -oProxyCommand='git push' host", child('tool-command@0', 'git push')),
  ],
  [
    "ssh -4o 'ProxyCommand git push' -N host",
    top("ssh -4o 'ProxyCommand git push' -N host", child('tool-command@0', 'git push')),
  ],
  [
    "ssh -o PermitLocalCommand=yes -o LocalCommand='git commit -qam x' host",
    top(
      "ssh -o PermitLocalCommand=yes -o LocalCommand='git commit -qam x' host",
      child('tool-command@0', 'git commit -qam x'),
    ),
  ],
  [
    'ssh -o "ProxyCommand=$CMD" host',
    top('ssh -o "ProxyCommand=$CMD" host', unread('tool-command@0', 'dynamic')),
  ],
  // the shell escapes of editors and stream tools (tool-escapes.ts)
  ["vim -c '!git push' -c q", top("vim -c '!git push' -c q", child('tool-command@0', 'git push'))],
  ["vim +'silent !git push' f", top("vim +'silent !git push' f", child('tool-command@0', 'git push'))],
  ["vim -c 'call system(g:x)'", top("vim -c 'call system(g:x)'", unread('tool-command@0', 'dynamic'))],
  [
    "ed -s f <<'EOF'\n!git push\nq\nEOF",
    top("ed -s f <<'EOF'\n!git push\nq\nEOF", child('tool-command@0', 'git push')),
  ],
  // vim and ex in Ex mode read an Ex script from their input: each `!cmd` line runs cmd
  [
    "vim -es f <<'EOF'\n!git push\nq\nEOF",
    top("vim -es f <<'EOF'\n!git push\nq\nEOF", child('tool-command@0', 'git push')),
  ],
  ["ex -s f <<< 'sil !git push'", top("ex -s f <<< 'sil !git push'", child('tool-command@0', 'git push'))],
  ["vim -es f <<< 'r !git push'", top("vim -es f <<< 'r !git push'", unread('tool-command@0', 'dynamic'))],
  ['ex -s f <<< "!$cmd"', top('ex -s f <<< "!$cmd"', unread('tool-command@0', 'dynamic'))],
  // out of Ex mode vim runs the keys piped or redirected into it: a `:` line in Normal mode is an
  // ex command; other keys may leave Normal mode or filter through a shell (`!`): not read
  ["vim f <<< ':!git push'", top("vim f <<< ':!git push'", child('tool-command@0', 'git push'))],
  [
    "echo ':sil !git push' | view f",
    top("echo ':sil !git push' | view f", child('tool-command@1', 'git push')),
  ],
  ["vim f <<< ':wq'", top("vim f <<< ':wq'")],
  ["vim f <<< '!git push'", top("vim f <<< '!git push'", unread('tool-command@0', 'dynamic'))],
  [
    "vim f <<< 'ix'$'\\n'':!git push'",
    top("vim f <<< 'ix'$'\\n'':!git push'", unread('tool-command@0', 'dynamic')),
  ],
  ["vim - <<< ':!git push'", top("vim - <<< ':!git push'")], // `-`: the input is the text it edits
  ["nvim f <<< ':!git push'", top("nvim f <<< ':!git push'")], // so is nvim's
  ['cat keys | vim f', top('cat keys | vim f', unread('tool-command@1', 'dynamic'))],
  ["bash -c 'vim f'", top("bash -c 'vim f'", child('shell-string@0', 'vim f'))], // keys from around it: not read
  ["vim -es f <<< '%s/a/b/'", top("vim -es f <<< '%s/a/b/'")],
  // keys or an Ex script read from a file the gate cannot see: unknown (vim runs them now)
  ['vim f < keys.txt', top('vim f < keys.txt', unread('tool-command@0', 'dynamic'))],
  ['ex f < script.ex', top('ex f < script.ex', unread('tool-command@0', 'dynamic'))],
  ['vim -es f < script.ex', top('vim -es f < script.ex', unread('tool-command@0', 'dynamic'))],
  // :normal keys that filter through a shell, type a `:` line or enter Ex mode; :execute's string
  ["vim -c 'norm !!git push' f", top("vim -c 'norm !!git push' f", unread('tool-command@0', 'dynamic'))],
  [
    "vim -c 'normal! :!git push' f",
    top("vim -c 'normal! :!git push' f", unread('tool-command@0', 'dynamic')),
  ],
  ["vim -c 'norm!!!git push' f", top("vim -c 'norm!!!git push' f", unread('tool-command@0', 'dynamic'))],
  ["vim -c 'g/x/norm Q' f", top("vim -c 'g/x/norm Q' f", unread('tool-command@0', 'dynamic'))],
  ['vim -c \'exe "!git push"\' f', top('vim -c \'exe "!git push"\' f', unread('tool-command@0', 'dynamic'))],
  ["ex -s f <<< 'execute g:cmd'", top("ex -s f <<< 'execute g:cmd'", unread('tool-command@0', 'dynamic'))],
  ["vim f <<< ':norm !!git push'", top("vim f <<< ':norm !!git push'", unread('tool-command@0', 'dynamic'))],
  // `|` ends an ex command: a `!` after it runs a shell
  [
    "vim -c 'set nu | !git push' f",
    top("vim -c 'set nu | !git push' f", child('tool-command@0', 'git push')),
  ],
  [
    "ex -s f <<< 'set nu|sil !git push'",
    top("ex -s f <<< 'set nu|sil !git push'", child('tool-command@0', 'git push')),
  ],
  [
    "vim f <<< ':set nu | !git push'",
    top("vim f <<< ':set nu | !git push'", child('tool-command@0', 'git push')),
  ],
  // gvim is vim; rvim, rview and -Z are restricted: no shell runs
  ["gvim -c '!git push' f", top("gvim -c '!git push' f", child('tool-command@0', 'git push'))],
  ["gvim -f f <<< ':!git push'", top("gvim -f f <<< ':!git push'", child('tool-command@0', 'git push'))],
  ["sed -n '1e git push' f", top("sed -n '1e git push' f", child('tool-command@0', 'git push'))],
  [
    "sed -e 's/a/b/' -e '$e git push' f",
    top("sed -e 's/a/b/' -e '$e git push' f", child('tool-command@0', 'git push')),
  ],
  ["sed 's/a/b/e' f", top("sed 's/a/b/e' f", unread('tool-command@0', 'dynamic'))],
  ["npm exec -c 'git push'", top("npm exec -c 'git push'", child('tool-command@0', 'git push'))],
  ["npx -c 'git push'", top("npx -c 'git push'", child('tool-command@0', 'git push'))],
  ['watch -n 5 git push', top('watch -n 5 git push', child('tool-command@0', 'git push'))],
  // input that is only known at run time
  ['sh <<EOF\ngit push $x\nEOF', top('sh <<EOF\ngit push $x\nEOF', unread('shell-input@0', 'dynamic'))],
  ['bash <<EOF\n$(cat cmds)\nEOF', top('bash <<EOF\n$(cat cmds)\nEOF', unread('shell-input@0', 'dynamic'))],
  ['sh <<< "$cmd"', top('sh <<< "$cmd"', unread('shell-input@0', 'dynamic'))],
  ['curl -fsSL https://x | bash', top('curl -fsSL https://x | bash', unread('shell-input@1', 'dynamic'))],
  ["echo -e 'git\\x20push' | sh", top("echo -e 'git\\x20push' | sh", unread('shell-input@1', 'dynamic'))],
  ["printf '%d' 1 | sh", top("printf '%d' 1 | sh", unread('shell-input@1', 'dynamic'))],
  ['echo "$cmd" | sh', top('echo "$cmd" | sh', unread('shell-input@1', 'dynamic'))],
  ["{ echo 'git push'; } | sh", top("{ echo 'git push'; } | sh", unread('shell-input@1', 'dynamic'))],
  ['echo x | { bash; }', top('echo x | { bash; }', unread('shell-input@1', 'dynamic'))],
  [
    "bash -c 'bash'",
    top("bash -c 'bash'", child('shell-string@0', 'bash', unread('shell-input@0', 'dynamic'))),
  ],
  ['source <(curl -s https://x)', top('source <(curl -s https://x)', unread('sourced@0', 'dynamic'))],
  ['source <(echo a; echo b)', top('source <(echo a; echo b)', unread('sourced@0', 'dynamic'))],
  ['script -c "$cmd"', top('script -c "$cmd"', unread('shell-string@0', 'dynamic'))],
  // flock FILE -c 'str' and script -c 'str': the tool hands the string to a shell
  ["flock /tmp/l -c 'git push'", top("flock /tmp/l -c 'git push'", child('shell-string@0', 'git push'))],
  [
    "flock -w 5 /tmp/l --command 'a | b'",
    top("flock -w 5 /tmp/l --command 'a | b'", child('shell-string@0', 'a | b')),
  ],
  [
    "script -qc 'git push' /dev/null",
    top("script -qc 'git push' /dev/null", child('shell-string@0', 'git push')),
  ],
  [
    "script -q /dev/null -c'git push'",
    top("script -q /dev/null -c'git push'", child('shell-string@0', 'git push')),
  ],
  [
    "script --command='git push' /dev/null",
    top("script --command='git push' /dev/null", child('shell-string@0', 'git push')),
  ],
  ["flock /tmp/l -c 'git push' extra", top("flock /tmp/l -c 'git push' extra")],
  ['flock /tmp/l git push', top('flock /tmp/l git push')],
  ['flock -c /tmp/l git push', top('flock -c /tmp/l git push')],
  ['script -q /dev/null', top('script -q /dev/null')],
  ["script --command='git push'", top("script --command='git push'", child('shell-string@0', 'git push'))],
  [
    'script -q -c "git commit -m x" out.log',
    top('script -q -c "git commit -m x" out.log', child('shell-string@0', 'git commit -m x')),
  ],
  ['flock /tmp/l -c "$CMD"', top('flock /tmp/l -c "$CMD"', unread('shell-string@0', 'dynamic'))],
  // strings only known at run time
  ['bash -c "$CMD"', top('bash -c "$CMD"', unread('shell-string@0', 'dynamic'))],
  ['eval "$(ssh-agent -s)"', top('eval "$(ssh-agent -s)"', unread('eval@0', 'dynamic'))],
  ['eval git $sub', top('eval git $sub', unread('eval@0', 'dynamic'))],
  ['sh -c $1', top('sh -c $1', unread('shell-string@0', 'dynamic'))],
  ["bash $flags -c 'git push'", top("bash $flags -c 'git push'", unread('shell-string@0', 'dynamic'))],
  ['env -S "$CMD"', top('env -S "$CMD"', unread('split-string@0', 'dynamic'))],
  ["env -S 'git push' $remote", top("env -S 'git push' $remote", unread('split-string@0', 'dynamic'))],
  // a string that does not parse
  [`bash -c "echo 'x"`, top(`bash -c "echo 'x"`, unread('shell-string@0', 'syntax'))],
  [
    `find . -exec true \\; -exec sh -c 'git push "' \\;`,
    top(
      `find . -exec true \\; -exec sh -c 'git push "' \\;`,
      child('find-exec@0', 'true'),
      child('find-exec@0', `sh -c 'git push "'`, unread('shell-string@0', 'syntax')),
    ),
  ],
];

describe('each command line a segment runs is a child line of its own', () => {
  test.for(trees)('%s', ([command, want]) => expect(treeOf(command)).toEqual(want));

  test('no command appears twice', () => {
    const commands = trees.map(([command]) => command);
    expect(new Set(commands).size).toBe(commands.length);
  });
});

describe('no nested line', () => {
  test.for([
    'bash script.sh',
    'bash',
    'git push',
    'eval',
    'sh -o pipefail script.sh',
    'bash -c',
    'bash $flags script.sh',
    'ssh host',
    'ssh -N -L 8080:localhost:80 host',
    'ssh -s host sftp',
    'ssh -G host',
    'ssh -O exit host',
    "ssh -o ProxyCommand=none -o ProxyCommand='git push' host",
    "ssh -o LocalCommand='git push' host",
    "ssh -o PermitLocalCommand=no -o PermitLocalCommand=yes -o LocalCommand='git push' host",
    "ssh -G -o ProxyCommand='git push' host",
    'ssh -J bastion host',
    'ssh -F ssh.cfg -o StrictHostKeyChecking=no host',
    'echo ssh host git push',
    'find . -name x -print',
    'find . -exec \\;',
    'echo bash -c "git push"',
    "cat <<'EOF'\nbash -c 'git push'\nEOF",
    // out of reach by design: a script in a file, run now or later
    'bash < script.sh',
    'sh -s < script.sh',
    'source ./env.sh',
    '. ~/.bashrc',
    'bash -s',
    "echo 'git push' | cat",
    "echo 'git push' > run.sh",
    "python3 - <<'EOF'\nimport os\nos.system('git push')\nEOF",
    'script -q /dev/null',
    'script out.log',
    // editors and stream tools that run no shell
    'vim -c wq f',
    'vim +10 f',
    // no file of keys: /dev/null and a terminal hold none; `vim -` reads its file as the text it edits
    'vim f < /dev/null',
    'ex -s f < /dev/null',
    'vim - < notes.txt',
    'vim -c wq f < /dev/tty',
    // :normal keys with no `!`, `:` or Q run nothing external; a word that only holds "exe" or "normal"
    "vim -c 'norm dd' -c wq f",
    "vim -c 'normal! ggdG' -c wq f",
    "vim -c 'norm!gg' -c wq f",
    "vim -c 'set ft=normal' -c 'e tool.exe' f",
    "ex -s f <<< 'g/x/normal Ax'",
    "vim -c 'set nu | wq' f",
    "ex -s f <<< '%s/a\\|b/!/g'", // an escaped bar is the pattern's
    // restricted: rvim, rview, vim -Z
    "rvim -c '!git push' f",
    "rview -es f <<< '!git push'",
    "vim -Z -c 'norm !!git push' f",
    "vim -Zes f <<< '!git push'",
    'rvim f < keys.txt',
    "sed -n 's/a/b/p' f",
    "sed '/^e/d' f",
    'sed -f edits.sed f',
    'ed -s f < script.ed',
    "npm exec -- eslint -c '.eslintrc' .",
    'npm test',
    'watch',
  ])('%s', (command) => expect(topLine(command).nested).toEqual([]));
});

describe('limits', () => {
  const evals = (n: number) => `${'eval '.repeat(n)}git push`;

  test('the default reads 8 lines deep; the 9th is too deep', () => {
    const deepest = (line: CommandLine): CommandLine => {
      const [first] = line.nested;
      return first?.ok ? deepest(first.line) : line;
    };
    expect(deepest(topLine(evals(8))).source).toBe('git push');
    expect(deepest(topLine(evals(9)))).toMatchObject({ source: 'eval git push' });
    expect(deepest(topLine(evals(9))).nested).toMatchObject([
      { ok: false, reason: 'too-deep', message: 'nested deeper than 8 command lines' },
    ]);
  });

  test('maxNesting sets the depth; 0 reads no nested line', () => {
    expect(treeOf(`bash -c "bash -c 'git push'"`, { maxNesting: 1 })).toEqual(
      top(
        `bash -c "bash -c 'git push'"`,
        child('shell-string@0', "bash -c 'git push'", unread('shell-string@0', 'too-deep')),
      ),
    );
    expect(treeOf("bash -c 'git push'", { maxNesting: 0 })).toEqual(
      top("bash -c 'git push'", unread('shell-string@0', 'too-deep')),
    );
  });

  test('a string known only at run time is dynamic at any depth, not too deep', () => {
    expect(treeOf('bash -c "$CMD"', { maxNesting: 0 })).toEqual(
      top('bash -c "$CMD"', unread('shell-string@0', 'dynamic')),
    );
  });

  test('maxLength applies to each nested text too', () => {
    // The operands of env -S come back quoted, so the nested text is longer than the command.
    const command = 'env -S a b c d e f';
    expect(treeOf(command, { maxLength: command.length })).toEqual(
      top(command, unread('split-string@0', 'too-long')),
    );
  });

  test('maxTotalLength bounds the text parsed over the tree: the command, then each nested line in turn', () => {
    const command = "bash -c 'git push'; bash -c 'git log'";
    expect(treeOf(command, { maxTotalLength: command.length + 8 })).toEqual(
      top(command, child('shell-string@0', 'git push'), unread('shell-string@1', 'too-long')),
    );
    expect(treeOf(command, { maxTotalLength: command.length + 15 })).toEqual(
      top(command, child('shell-string@0', 'git push'), child('shell-string@1', 'git log')),
    );
  });

  test('maxLines bounds the command lines of the tree, the top one included', () => {
    const command = "bash -c 'git push'; eval git log; sh -c 'ls'";
    expect(treeOf(command, { maxLines: 3 })).toEqual(
      top(
        command,
        child('shell-string@0', 'git push'),
        child('eval@1', 'git log'),
        unread('shell-string@2', 'too-many'),
      ),
    );
  });

  test.for([0, -1, Number.NaN, '8'])('maxTotalLength %s is the programmer’s error', (maxTotalLength) => {
    expect(() => parse('ls', { maxTotalLength: maxTotalLength as number })).toThrow(
      `parse: \`maxTotalLength\` must be a positive number, got ${String(maxTotalLength)} (${typeof maxTotalLength})`,
    );
  });

  test.for([-1, 1.5, Number.NaN, '8'])('maxNesting %s is the programmer’s error', (maxNesting) => {
    expect(() => parse('ls', { maxNesting: maxNesting as number })).toThrow(
      `parse: \`maxNesting\` must be a non-negative integer, got ${String(maxNesting)} (${typeof maxNesting})`,
    );
  });
});

describe('a child line refers to the segment that runs it', () => {
  test('runner.segment is the very segment object of the line above, and runner.line that line', () => {
    const line = topLine("make; echo $(bash -c 'git push') | tail");
    const [nested] = line.nested;
    if (!nested?.ok) throw new Error('expected a child line');
    expect(nested.line.runner?.line).toBe(line);
    expect(nested.line.runner?.segment).toBe(line.segments[2]);
    expect(line.segments[2]?.text).toBe("bash -c 'git push'");
  });

  test('runner.start and runner.end are where the nested text stands in the line above', () => {
    const spans = (command: string) =>
      topLine(command).nested.map((nested) => {
        const runner = nested.ok ? nested.line.runner : nested.runner;
        return runner && command.slice(runner.start, runner.end);
      });
    expect(spans("bash -c 'git push' origin")).toEqual(["'git push'"]);
    expect(spans("eval git 'push'")).toEqual(["git 'push'"]);
    expect(spans("env -S 'git push' a b")).toEqual(["'git push' a b"]);
    expect(spans("env -S'git push'")).toEqual(["'git push'"]);
    expect(spans("find . -exec rm {} \\; -ok sh -c 'x' \\;")).toEqual(['rm {}', "sh -c 'x'"]);
    expect(spans('bash -c "$CMD"')).toEqual(['"$CMD"']);
  });

  test("a child line's segments have their own offsets, indices, frames and owners", () => {
    const line = topLine("echo $(x) && bash -c 'a; (b $(c))'");
    const [nested] = line.nested;
    if (!nested?.ok) throw new Error('expected a child line');
    const inner = nested.line;
    expect(
      inner.segments.map((segment) => [
        segment.index,
        segment.text,
        inner.source.slice(segment.start, segment.end),
      ]),
    ).toEqual([
      [0, 'a', 'a'],
      [1, 'b $(c)', 'b $(c)'],
      [2, 'c', 'c'],
    ]);
    expect(inner.segments[2]?.context.map((frame) => frame.kind)).toEqual([
      'main',
      'subshell',
      'command-substitution',
    ]);
    // The owner of $(c) is b, an index into the child line's own segments.
    expect(inner.segments[2]?.context.at(-1)?.owner).toBe(1);
  });
});

test('a find action’s line holds its own command only: a substitution in its words runs in the line above', () => {
  const line = topLine('find . -exec echo $(git push) {} \\;');
  expect(line.segments.map((segment) => segment.text)).toEqual([
    'find . -exec echo $(git push) {} \\;',
    'git push',
  ]);
  const [action] = line.nested;
  if (!action?.ok) throw new Error('expected the action’s line');
  expect(action.line.source).toBe('echo $(git push) {}');
  expect(action.line.segments.map((segment) => [segment.index, segment.text])).toEqual([
    [0, 'echo $(git push) {}'],
  ]);
  expect(action.line.segments[0]?.argv[1]).toMatchObject({ value: null, dynamic: true });
});

const hasBash = spawnSync('bash', ['--version']).status === 0;
describe.skipIf(!hasBash)('every tree command is one bash accepts', () => {
  test.for(trees.map(([command]) => command))('%s', (command) => {
    expect(spawnSync('bash', ['-n', '-c', command]).status).toBe(0);
  });
});
