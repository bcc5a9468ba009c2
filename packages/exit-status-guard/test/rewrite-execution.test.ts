import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { evaluate } from '../src/index.ts';
import { bashCall, fakeContext } from './fake-context.ts';
import { type RewriteCase, rewriteCases } from './rewrite-cases.ts';
import { rewriteIn } from './rewrite-in.ts';

// Every suggested rewrite, run for real in bash in a scratch folder with stub tools first on PATH:
// it must pass the guard that suggested it, keep the control flow that depended on the status,
// show what the filter showed and report a failed check.

const hasBash = spawnSync('bash', ['--version']).status === 0;

const scratch = mkdtempSync(join(tmpdir(), 'kit-rewrites-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const bin = join(scratch, 'bin');

/** A stub that records its call; a check prints numbered lines and exits with $CHECK_STATUS. */
function stub(name: string, body: string): void {
  const path = name.includes('/') ? join(scratch, 'work', name) : join(bin, name);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, `#!/bin/bash\necho "${name} $*" >> "$RECORD"\n${body}\n`);
  chmodSync(path, 0o755);
}
const check = 'for i in $(seq 1 8); do echo "$(basename "$0") line $i"; done\nexit "${CHECK_STATUS:-0}"';
// Issue 24's registry additions run as checks too: a gate script by its path, Node's syntax check, Nix, pnpm.
for (const name of [
  'make',
  'pytest',
  'cargo',
  'go',
  'scripts/check.sh',
  'php',
  'node',
  'nix',
  'nix-instantiate',
  'pnpm',
])
  stub(name, check);
// npm exec -c / npx -c hand their string to a shell and exit with its status.
stub(
  'npm',
  `if [ "$1" = publish ]; then exit 0; fi\nif [ "$1" = exec ] && [ "$2" = -c ]; then exec bash -c "$3"; fi\n${check}`,
);
stub('npx', `if [ "$1" = -c ]; then exec bash -c "$2"; fi\n${check}`);
for (const name of ['git', 'kubectl', 'helm', 'notify']) stub(name, 'exit 0');
// ssh runs its remote command here: after its options (those with a value take the next word) and the destination.
stub(
  'ssh',
  'while [ $# -gt 0 ]; do case "$1" in -[pilFJo]) shift 2;; -*) shift;; *) break;; esac; done\nshift\nexec bash -c "$*"',
);
for (const dir of ['work/sub/sub', 'work/scripts']) mkdirSync(join(scratch, dir), { recursive: true });
writeFileSync(join(scratch, 'work', 'notes.txt'), 'a note\n');
writeFileSync(join(scratch, 'work', 'sub', 'notes.txt'), 'a note\n');

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
  ran: string[]; // the record: every stub call, in order
}

let runs = 0;
/** Runs a command in a fresh copy of the work folder, the check passing or failing. */
function run(command: string, outcome: 'pass' | 'fail'): Run {
  runs += 1;
  const cwd = join(scratch, `run-${runs}`);
  spawnSync('cp', ['-r', join(scratch, 'work'), cwd]);
  const record = join(cwd, '.record');
  writeFileSync(record, '');
  const result = spawnSync('bash', ['-c', command], {
    cwd,
    env: {
      PATH: `${bin}:/usr/bin:/bin`,
      HOME: cwd,
      RECORD: record,
      CHECK_STATUS: outcome === 'pass' ? '0' : '1',
    },
    encoding: 'utf8',
    timeout: 20_000,
  });
  return {
    status: result.status,
    stdout: result.stdout,
    stderr: result.stderr,
    ran: readFileSync(record, 'utf8').split('\n').filter(Boolean),
  };
}

const changes = /^(git push|git commit|npm publish|kubectl delete|helm uninstall)/;
const checkLines = (stdout: string) => stdout.split('\n').filter((line) => / line \d+$/.test(line));

function judge(command: string, background: boolean) {
  return evaluate(bashCall(command, { background }), fakeContext());
}

describe.skipIf(!hasBash)('every rewrite runs, first time', () => {
  test('the table covers every denying rule', () => {
    expect(new Set(rewriteCases.map((row) => row.rule))).toEqual(
      new Set(['piped-gate', 'process-substitution', 'pipestatus', 'lost-background', 'sequenced-mutator']),
    );
  });
  test('no command appears twice', () => {
    const keys = rewriteCases.map((row) => `${row.background ? 'bg:' : ''}${row.command}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  test.for(rewriteCases)('$command', (row: RewriteCase) => {
    const background = row.background === true;
    const verdict = judge(row.command, background);
    expect(verdict).toMatchObject({ kind: 'deny', rule: row.rule });
    if (verdict.kind !== 'deny') return;
    const rewrite = rewriteIn(verdict.reason);
    if (row.fallback) {
      expect(rewrite, 'no correct rewrite exists: the reason says what to do in words').toBeNull();
      return;
    }
    expect(rewrite, verdict.reason).not.toBeNull();
    if (rewrite === null) return;

    // (1) the guard that suggested it lets it through
    const again = judge(rewrite, background);
    expect(again.kind === 'deny' ? `${again.rule}: ${again.reason}` : 'silent', rewrite).toBe('silent');

    for (const outcome of ['pass', 'fail'] as const) {
      const original = run(row.command, outcome);
      const rewritten = run(rewrite, outcome);
      const context = `${rewrite}\n(${outcome}) ran: ${rewritten.ran.join('; ')}\nstdout: ${rewritten.stdout}`;
      // (2) the control flow that depended on the status
      const changed = rewritten.ran.some((call) => changes.test(call));
      if (row.change === 'iff-pass') expect(changed, context).toBe(outcome === 'pass');
      if (row.change === 'always') expect(changed, context).toBe(true);
      if (row.change === undefined) expect(changed, context).toBe(false);
      if (row.failureBranch)
        expect(rewritten.ran.includes('notify failed'), context).toBe(outcome === 'fail');
      // (3) what the filter showed, and a failed check reported
      // A check the rewrite no longer runs after an earlier one failed (`a && b && push`) shows nothing.
      const ranChecks = new Set(rewritten.ran.map((call) => call.split(' ')[0]));
      for (const line of checkLines(original.stdout).filter((each) => ranChecks.has(each.split(' ')[0])))
        expect(rewritten.stdout.split('\n'), context).toContain(line);
      const reported =
        rewritten.status !== 0 ||
        /EXIT=1\b/.test(rewritten.stdout + rewritten.stderr) ||
        rewritten.ran.includes('notify failed');
      if (outcome === 'fail') expect(reported, context).toBe(true);
      if (outcome === 'fail' && background) expect(rewritten.status, context).not.toBe(0);
      if (outcome === 'pass') expect(rewritten.status, context).toBe(0);
      expect(
        rewritten.ran.filter((call) => !changes.test(call) && call !== 'notify failed').length,
        context,
      ).toBeGreaterThan(0);
    }
  });
});

// Rule 3's "carries", proven in bash with the check failing: a row the guard lets through as a
// background task ends non-zero, a row it denies ends 0 (the failed check turned green).
const backgroundStatus: { command: string; carries: boolean }[] = [
  { command: 'if [ -d sub ]; then make check; else npm test; fi', carries: true },
  { command: 'if [ -d nosuch ]; then make check; else npm test; fi', carries: true },
  { command: 'if [ -d sub ]; then make check; fi', carries: true },
  { command: 'if make check; then echo ok; else exit 1; fi', carries: true },
  { command: 'if ! make check; then echo failed; exit 1; fi', carries: true },
  { command: 'case x in x) make check;; y) npm test;; esac', carries: true },
  { command: 'make check; if [ $? -ne 0 ]; then echo failed; exit 1; fi', carries: true },
  { command: 'if [ -d nosuch ]; then echo none; elif [ -d sub ]; then cargo test; fi', carries: true },
  { command: 'make lint; x=$(make check)', carries: true },
  { command: 'x=$(date) y=$(make check)', carries: true },
  { command: 'if make check; then echo ok; else echo failed; fi', carries: false },
  { command: 'if make check; then echo ok; fi', carries: false },
  { command: 'if [ -d sub ]; then make check; echo done; fi', carries: false },
  { command: 'make check; if [ -f notes.txt ]; then cat notes.txt; fi', carries: false },
  { command: 'make check; if [ $? -eq 0 ]; then echo ok; fi', carries: false },
  { command: 'case x in x) make check; echo done;; esac', carries: false },
  { command: 'make check; case x in x) echo x;; esac', carries: false },
  { command: 'if make check || true; then echo ok; fi', carries: false },
  { command: 'until make check; do break; done', carries: false },
  { command: 'make check; x=$(date)', carries: false },
  { command: 'x=$(make check) y=$(date)', carries: false },
];

describe.skipIf(!hasBash)(
  'a background task carries the status exactly when bash reports the failed check',
  () => {
    test.for(backgroundStatus)('$command', ({ command, carries }) => {
      const failed = run(command, 'fail');
      expect(failed.ran.length, failed.stderr).toBeGreaterThan(0);
      expect(failed.status !== 0, failed.stdout).toBe(carries);
      expect(judge(command, true).kind === 'deny').toBe(!carries);
    });
  },
);
