import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { executable, git, initRepo, tempDir, writeTree } from '@kit/test-kit';
import { parse } from '@kit/shell-segments';
import { describe, expect, test } from 'vitest';
import { realContext, resolveRealDirectory } from '../src/context.ts';
import { evaluate } from '../src/evaluate.ts';
import { findWrites } from '../src/judge-line.ts';
import { findWorkTreeTop } from '../src/work-tree.ts';
import { limits } from '../src/limits.ts';
import { bashCall } from './fake-context.ts';
import { profileText } from './fixtures.ts';

// §1 on real folders: the directory a git command really runs in. Each row is judged by the gate
// and, where it names no expansion, run in real bash with a stub git that logs `pwd -P`: the
// directories the gate reads must hold every one git really ran in.

// POSIX folders, symlinks and bash: the Windows runners skip this file.
const onWindows = process.platform === 'win32';
const root = onWindows ? '' : tempDir('gwg-directory');
const managed = join(root, 'managed');
const plain = join(root, 'plain');
const outside = join(root, 'outside');
const inner = join(managed, 'vendor', 'inner');
const worktree = join(root, 'managed-worktree');
// A folder 300 levels deep inside the managed repository: no depth limit on the walk up.
const deep = join(managed, ...Array.from({ length: 300 }, () => 'd'));
if (!onWindows) {
  initRepo(managed, {
    '.claude/skills/repo-profile.md': profileText,
    'notes.txt': 'a file\n',
    'sub/deep/.keep': '',
  });
  initRepo(plain, { 'sub/.keep': '' });
  mkdirSync(outside);
  // A repository nested inside the managed one, with no profile of its own: the nearest .git wins.
  initRepo(inner);
  symlinkSync(join(managed, 'sub'), join(outside, 'to-managed-sub'));
  symlinkSync(managed, join(outside, 'to-managed'));
  symlinkSync(plain, join(managed, 'to-plain'));
  symlinkSync('loop', join(outside, 'loop')); // a path that cannot be read: ELOOP
  git(managed, 'worktree', 'add', '-q', '-b', 'wt', worktree);
  mkdirSync(deep, { recursive: true });
}
const stubs = join(root, 'stubs');
if (!onWindows)
  // A stub git that follows -C, --work-tree and --git-dir (and their variables) as git does (and stops where git would),
  // then logs the folder it writes in.
  writeTree(stubs, {
    git: executable(
      [
        '#!/bin/sh',
        // GIT_WORK_TREE and GIT_DIR in its environment say what the options say; the options win.
        'tree=${GIT_WORK_TREE-}; dir=${GIT_DIR-}',
        'while [ $# -gt 0 ]; do case "$1" in',
        '  -C) cd -P "$2" || exit 128; shift 2;; -c) shift 2;;',
        '  --work-tree) tree=$2; shift 2;; --work-tree=*) tree=${1#*=}; shift;;',
        '  --git-dir) dir=$2; shift 2;; --git-dir=*) dir=${1#*=}; shift;;',
        '  *) break;; esac; done',
        // git writes the repository --git-dir belongs to (the folder holding it), wherever --work-tree is.
        'if [ -n "$dir" ]; then cd -P "$dir/.." || exit 128; elif [ -n "$tree" ]; then cd -P "$tree" || exit 128; fi',
        'pwd -P >> "$GIT_STUB_LOG"',
        '',
      ].join('\n'),
    ),
  });

interface Row {
  command: string;
  cwd: string;
  want: 'deny' | 'silent';
}

const rows: Row[] = [
  // positive control
  { command: `cd ${managed} && git commit -m x`, cwd: outside, want: 'deny' },
  // a cd that fails leaves the shell where it was; after && it stops the chain
  { command: 'cd /nonexistent 2>/dev/null; git commit -m x', cwd: managed, want: 'deny' },
  { command: 'cd /nonexistent 2>/dev/null && git commit -m x', cwd: managed, want: 'silent' },
  { command: `cd ${managed}/notes.txt; git commit -m x`, cwd: managed, want: 'deny' },
  { command: `cd ${managed}/notes.txt && git commit -m x`, cwd: managed, want: 'silent' },
  { command: `cd ${plain} ${outside}; git commit -m x`, cwd: managed, want: 'deny' },
  { command: `cd ${plain} ${outside} && git commit -m x`, cwd: managed, want: 'silent' },
  { command: `cd /nonexistent || git commit -m x`, cwd: managed, want: 'deny' },
  { command: `cd ${plain} || git commit -m x`, cwd: managed, want: 'silent' },
  { command: `cd ${plain} || exit 1; git push`, cwd: managed, want: 'silent' },
  { command: `cd /nonexistent || exit 1; git push`, cwd: managed, want: 'silent' },
  { command: `cd ${managed} || exit 1; git push`, cwd: outside, want: 'deny' },
  { command: 'exit 0; git push', cwd: managed, want: 'silent' },
  { command: `cd /nonexistent && git status || git push`, cwd: managed, want: 'deny' },
  // a $(( )) is no command substitution: the $( ) inside one runs just before its command, as
  // the command's own do, in the directory the command starts in
  { command: 'echo $(( $(git commit -m x >&2; echo 1) ))', cwd: managed, want: 'deny' },
  { command: `echo $(( $(cd ${managed}; git push >&2; echo 1) )); true`, cwd: plain, want: 'deny' },
  { command: `cd "${managed}$(git commit -m x >&2)"; true`, cwd: plain, want: 'silent' },
  { command: `cd ${managed} 2>"$(git commit -m x >&2; echo /dev/null)"; true`, cwd: plain, want: 'silent' },
  { command: `X=$(( $(git commit -m x >&2) + 0 )) cd ${managed}; true`, cwd: plain, want: 'silent' },
  { command: `cd ${managed} 2>/dev/null$(( $(git push >&2) )); true`, cwd: plain, want: 'silent' },
  { command: `echo $(( 1 + 2 )) && git push`, cwd: plain, want: 'silent' },
  // cd - (OLDPWD within the line), pushd and popd
  { command: `cd ${plain}; cd -; git commit -m x`, cwd: managed, want: 'deny' },
  { command: `cd ${managed}; cd ${plain}; cd - && git push`, cwd: outside, want: 'deny' },
  { command: `cd ${plain}; cd ${outside}; cd -; git push`, cwd: managed, want: 'silent' },
  { command: `pushd ${managed} && git push`, cwd: outside, want: 'deny' },
  { command: `pushd ${plain} && git push`, cwd: managed, want: 'silent' },
  { command: `pushd ${managed}; pushd ${plain}; popd; git push`, cwd: outside, want: 'deny' },
  { command: `pushd ${plain}; popd; git push`, cwd: managed, want: 'deny' },
  { command: `pushd ${managed}; popd; git push`, cwd: outside, want: 'silent' },
  { command: `pushd ${plain}; pushd; git push`, cwd: managed, want: 'deny' },
  // CDPATH set on the line
  { command: `CDPATH=${root} cd managed && git push`, cwd: outside, want: 'deny' },
  { command: `CDPATH=${root}; cd managed && git push`, cwd: outside, want: 'deny' },
  { command: `export CDPATH=${root}; cd plain && git push`, cwd: managed, want: 'silent' },
  { command: `CDPATH=${root} cd ./managed && git push`, cwd: outside, want: 'silent' },
  // cd shadowed by a function defined earlier on the line; functions run where they are called
  { command: `cd() { :; }; cd ${plain} && git push`, cwd: managed, want: 'deny' },
  { command: `cd() { builtin cd ${managed}; }; cd ${plain} && git push`, cwd: outside, want: 'deny' },
  { command: `builtin cd ${plain} && git push`, cwd: managed, want: 'silent' },
  { command: `go() { cd ${managed}; }; go; git push`, cwd: outside, want: 'deny' },
  { command: `go() { cd ${plain}; }; go && git push`, cwd: managed, want: 'silent' },
  { command: `deploy() { git push; }; cd ${managed} && deploy`, cwd: outside, want: 'deny' },
  // symlinks resolved physically, as git resolves them, from the payload cwd too
  { command: 'cd to-managed-sub && git commit -m x', cwd: outside, want: 'deny' },
  { command: 'cd to-managed-sub/.. && git commit -m x', cwd: outside, want: 'silent' },
  { command: 'cd -P to-managed-sub/.. && git commit -m x', cwd: outside, want: 'deny' },
  { command: 'git -C to-managed-sub/.. commit -m x', cwd: outside, want: 'deny' },
  { command: 'git -C to-managed commit -m x', cwd: outside, want: 'deny' },
  { command: 'git commit -m x', cwd: join(outside, 'to-managed-sub'), want: 'deny' },
  // bash's $PWD behind a symlinked cwd is the host's choice: `..` may be either parent
  { command: 'cd .. && git commit -m x', cwd: join(outside, 'to-managed-sub'), want: 'deny' },
  { command: 'cd to-plain && git push', cwd: managed, want: 'silent' },
  { command: 'env -C to-managed git push', cwd: outside, want: 'deny' },
  // env takes any unique prefix of --chdir (its launcher grammar)
  { command: `env --c=${managed} git commit -m x`, cwd: outside, want: 'deny' },
  { command: 'env --ch to-managed git push', cwd: outside, want: 'deny' },
  { command: `env --c=${plain} git push`, cwd: managed, want: 'silent' },
  // git -C to a folder that is not there: git stops before any write
  { command: 'git -C /nonexistent commit -m x', cwd: managed, want: 'silent' },
  { command: `git -C ${managed}/notes.txt push`, cwd: managed, want: 'silent' },
  // --work-tree and --git-dir name the repository git writes to
  { command: `git --git-dir=${managed}/.git --work-tree=${managed} commit -m x`, cwd: outside, want: 'deny' },
  { command: `git --work-tree ${managed} --git-dir ${managed}/.git push`, cwd: outside, want: 'deny' },
  { command: `git --git-dir=${managed}/.git push`, cwd: outside, want: 'deny' },
  { command: `git --git-dir=${plain}/.git push`, cwd: managed, want: 'silent' },
  // so do GIT_DIR and GIT_WORK_TREE assigned in front of git; the options win over them
  { command: `GIT_DIR=${managed}/.git git push`, cwd: outside, want: 'deny' },
  { command: `GIT_WORK_TREE=${managed} GIT_DIR=${managed}/.git git commit -m x`, cwd: outside, want: 'deny' },
  { command: `env GIT_DIR=${managed}/.git git push`, cwd: outside, want: 'deny' },
  { command: `GIT_DIR=.git git -C ${managed} push`, cwd: outside, want: 'deny' },
  { command: `GIT_DIR=${plain}/.git git push`, cwd: managed, want: 'silent' },
  { command: `GIT_DIR=${managed}/.git git --git-dir=${plain}/.git push`, cwd: outside, want: 'silent' },
  // assigned alone (not exported) it stays in the shell: git does not see it
  { command: `GIT_DIR=${managed}/.git; git push`, cwd: outside, want: 'silent' },
  // exported, it reaches every git after it, in this shell and in the shells it starts
  { command: `export GIT_DIR=${managed}/.git; git push`, cwd: outside, want: 'deny' },
  {
    command: `export GIT_WORK_TREE=${managed} GIT_DIR=${managed}/.git; git commit -m x`,
    cwd: outside,
    want: 'deny',
  },
  { command: `declare -x GIT_DIR=${managed}/.git && git push`, cwd: outside, want: 'deny' },
  { command: `export GIT_DIR=${managed}/.git; bash -c 'git push'`, cwd: outside, want: 'deny' },
  { command: `declare GIT_DIR=${managed}/.git; git push`, cwd: outside, want: 'silent' },
  { command: `export GIT_DIR=${managed}/.git; unset GIT_DIR; git push`, cwd: outside, want: 'silent' },
  { command: `export GIT_DIR=${managed}/.git; GIT_DIR=${plain}/.git git push`, cwd: outside, want: 'silent' },
  { command: `(export GIT_DIR=${managed}/.git); git push`, cwd: outside, want: 'silent' },
  { command: `export GIT_DIR=${plain}/.git; git push`, cwd: managed, want: 'silent' },
  {
    command: `find ${managed} -maxdepth 1 -name sub -execdir git commit -m x \\;`,
    cwd: outside,
    want: 'deny',
  },
  // subshells, pipelines, backgrounds, eval and source, nested shells
  { command: `(cd ${plain}); git push`, cwd: managed, want: 'deny' },
  { command: `cd ${plain} | true; git push`, cwd: managed, want: 'deny' },
  { command: `eval "cd ${managed}"; git push`, cwd: outside, want: 'deny' },
  { command: `source <(echo cd ${managed}); git push`, cwd: outside, want: 'deny' },
  { command: `bash -c 'cd ${managed} && git push'`, cwd: outside, want: 'deny' },
  { command: `bash -c 'cd ${plain}'; git push`, cwd: managed, want: 'deny' },
  { command: `[ -d ${plain} ] && cd ${plain}; git push`, cwd: managed, want: 'deny' },
  { command: `if true; then cd ${plain}; fi; git push`, cwd: managed, want: 'deny' },
  { command: `for d in a b; do cd ${managed}; done; git push`, cwd: outside, want: 'deny' },
  { command: `for d in ${plain} ${outside}; do (cd $d && git push); done`, cwd: managed, want: 'silent' },
  // nested repositories, linked worktrees, no depth limit
  { command: 'cd vendor/inner && git push', cwd: managed, want: 'silent' },
  { command: 'git -C vendor/inner commit -m x', cwd: managed, want: 'silent' },
  { command: `cd ${worktree} && git push`, cwd: outside, want: 'deny' },
  { command: 'git push', cwd: deep, want: 'deny' },
  { command: 'cd ../../.. && git push', cwd: deep, want: 'deny' },
];

const kindOf = (command: string, cwd: string, env: Record<string, string> = {}) => {
  const verdict = evaluate(bashCall(command, cwd), realContext({ env: { HOME: root, ...env }, raw: '' }));
  return verdict.kind === 'deny' ? 'deny' : 'silent';
};

describe.skipIf(onWindows)('where a git command really runs, on real folders', () => {
  test('the fixtures are what they say', () => {
    expect(resolveRealDirectory(join(outside, 'to-managed-sub'))).toEqual({
      ok: true,
      value: join(managed, 'sub'),
    });
    expect(resolveRealDirectory(join(outside, 'loop'))).toMatchObject({ ok: false, reason: 'unreadable' });
    expect(resolveRealDirectory(join(managed, 'notes.txt'))).toMatchObject({
      ok: false,
      reason: 'not-directory',
    });
    expect(resolveRealDirectory('/nonexistent')).toMatchObject({ ok: false, reason: 'absent' });
    expect(findWorkTreeTopOf(inner)).toBe(inner);
  });
  test.for(rows)('$command (in $cwd): $want', ({ command, cwd, want }) => {
    expect(kindOf(command, cwd)).toBe(want);
  });
});

const hasBash = !onWindows && spawnSync('bash', ['--version']).status === 0;
describe.skipIf(!hasBash)('in real bash, git runs where the gate looks', () => {
  test.for(rows)('$command (in $cwd)', ({ command, cwd }) => {
    const log = join(tempDir('gwg-git-log'), 'log');
    writeFileSync(log, '');
    spawnSync('bash', ['-c', command], {
      cwd,
      env: { PATH: `${stubs}:${process.env.PATH}`, HOME: root, GIT_STUB_LOG: log },
      stdio: 'ignore',
    });
    const ran = readFileSync(log, 'utf8')
      .split('\n')
      .filter((line) => line !== '');
    const read = gateDirectories(command, cwd);
    // Where the gate says "somewhere the line does not show", any directory is one it allows for.
    if (read.somewhere) return;
    for (const directory of ran) expect(read.places).toContain(directory);
  });
});

function findWorkTreeTopOf(directory: string): string | null {
  return findWorkTreeTop(directory)?.top ?? null;
}

/** Every physical directory the gate reads a git write in, and whether it also allows for somewhere unknown. */
function gateDirectories(command: string, cwd: string): { places: string[]; somewhere: boolean } {
  const parsed = parse(command);
  if (!parsed.ok) throw new Error(parsed.message);
  const context = realContext({ env: { HOME: root }, raw: '' });
  const physical = resolveRealDirectory(cwd);
  const real = physical.ok ? physical.value : cwd;
  const start = [
    { logical: cwd, physical: real },
    { logical: real, physical: real },
  ];
  const found = findWrites(
    parsed.value,
    { places: start, unknown: null },
    { resolveDirectory: resolveRealDirectory, env: context.env, topOf: context.findWorkTreeTop, limits },
  );
  return {
    places: found.findings.flatMap((finding) => finding.where.places.map((place) => place.physical)),
    somewhere: found.findings.some((finding) => finding.where.unknown !== null),
  };
}

describe.skipIf(onWindows)(
  'where the directory cannot be known: no opinion by default; strict refuses where the line may be managed',
  () => {
    const strict = { TAGOUT_HOOKS_STRICT: '1' };
    const judge = (command: string, cwd: string, env: Record<string, string>) =>
      evaluate(bashCall(command, cwd), realContext({ env: { HOME: root, ...env }, raw: '' })).kind;
    test.for([
      ['cd "$X" && git push', managed],
      ['cd "$X"; git push', managed],
      [`cd ${outside}/loop && git push`, managed],
      [`cd ${managed}; cd "$X" && git push`, outside],
      ['pushd +1 && git push', managed],
      ['cd - && git push', managed],
      ['GIT_DIR="$X" git push', managed],
      ['export GIT_DIR="$X"; git push', managed],
      [`GIT_DIR=${plain}/.git; export GIT_DIR; git push`, managed],
    ])('%s (in %s)', ([command, cwd]) => {
      expect(judge(command as string, cwd as string, {})).not.toBe('deny');
      expect(judge(command as string, cwd as string, {})).not.toBe('refuse');
      expect(judge(command as string, cwd as string, strict)).toBe('refuse');
    });
    test.for([
      ['cd "$X" && git push', outside],
      ['cd loop && git push', outside],
      [`cd ${plain} && cd "$X" && git push`, outside],
      ['GIT_DIR="$X" git push', outside],
    ])('%s (in %s): nothing known is managed, so strict passes', ([command, cwd]) => {
      expect(judge(command as string, cwd as string, strict)).not.toBe('refuse');
    });
    test('GIT_GATE=on: the directory does not matter', () => {
      expect(judge('cd "$X" && git push', outside, { GIT_GATE: 'on' })).toBe('deny');
    });
  },
);
