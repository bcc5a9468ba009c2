import { describe, expect, test } from 'vitest';
import { evaluate } from '../src/evaluate.ts';
import { bashCall, fakeContext } from './fake-context.ts';

// Spec step 7: the gate's bound is the command's size (64 KiB), not counts that real commands
// reach. Each row is within 64 KiB: judged like any other line, a write denied in every mode and
// a read never refused in strict mode. Past 64 KiB (strict.test.ts) it cannot be judged.
const strict = { TAGOUT_HOOKS_STRICT: '1' };
// No time bound of its own: these rows prove verdicts, and a loaded machine takes seconds over the
// largest (bench/ measures cost); the wide timeout only ends a run that would never finish.
const judged = { timeout: 120_000 };
const files = Array.from({ length: 1300 }, (_, index) => `src/module-${index}/file-${index}.ts`).join(' ');
const message = Array.from({ length: 400 }, (_, index) => `- line ${index}: ${'why '.repeat(12)}`).join('\n');
const nested = (depth: number, inner: string) => `${'( '.repeat(depth)}${inner}${' )'.repeat(depth)}`;
const substituted = (depth: number, inner: string) =>
  `${'echo $('.repeat(depth)}${inner}${')'.repeat(depth)}`;

const writes: [string, string][] = [
  ['a 22 KB commit message in a heredoc', `git commit -F - <<'EOF'\n${message}\n${message}\nEOF`],
  ['an 18 KB -m', `git commit -m "${'a long message '.repeat(1200)}"`],
  ['a git add of 1,300 files, then a commit', `git add ${files} && git commit -m "add them"`],
  ['65 nested subshells', nested(65, 'git push')],
  ['200 nested subshells', nested(200, 'git push')],
  ['100 nested substitutions', substituted(100, 'git commit -qam x')],
  ['700 commands before the write', `${'true; '.repeat(700)}git push`],
  ['7,000 words before the write', `echo ${'a '.repeat(7000)}; git push`],
  ['a 60 KiB line', `echo ${'x'.repeat(60 * 1024)}; git push`],
  // Thousands of nested lines: each is read once (the walk indexes a line's nested lines), so the
  // work grows with the command's size, not with its square.
  ['4,000 evals, then a write', `${"eval 'git x';".repeat(4000)}git push`],
  ['2,800 bash -c, then a write', `${"bash -c 'git status';".repeat(2800)}git push`],
  ['3,500 here-strings into sh, then a write', `${"sh<<<'git st';".repeat(3500)}git push`],
];

const reads: [string, string][] = [
  ['git status after a 20 KB line', `echo ${'x'.repeat(20_000)}; git status`],
  ['a read after 700 commands', `${'true; '.repeat(700)}git status`],
  ['65 nested subshells around a read', nested(65, 'git log -1')],
  ['git log of 1,300 paths', `git log -- ${files}`],
  ['3,000 evals of a read', "eval 'git status';".repeat(3000)],
];

describe('within 64 KiB every line is judged: the write is denied, in both modes', () => {
  test.for(writes)('%s', judged, ([, command]) => {
    expect(command.length).toBeLessThanOrEqual(64 * 1024);
    expect(evaluate(bashCall(command), fakeContext()).kind).toBe('deny');
    expect(evaluate(bashCall(command), fakeContext(strict)).kind).toBe('deny');
  });
});

describe('within 64 KiB a read is judged: no opinion, strict mode included', () => {
  test.for(reads)('%s', judged, ([, command]) => {
    expect(command.length).toBeLessThanOrEqual(64 * 1024);
    expect(evaluate(bashCall(command), fakeContext(strict)).kind).toBe('none');
  });
});

test('nesting as deep as 64 KiB allows never throws out of evaluate', judged, () => {
  const verdict = evaluate(bashCall(nested(16_000, 'git push')), fakeContext(strict));
  expect(['deny', 'refuse']).toContain(verdict.kind);
});
