import { spawnSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { liftToTop } from '../src/lift.ts';
import { parse } from '../src/parse.ts';
import { shellQuote } from '../src/shell-quote.ts';
import type { CommandLine } from '../src/types.ts';
import { listLines } from '../src/walk.ts';

function deepestLine(command: string): CommandLine {
  const outcome = parse(command);
  if (!outcome.ok) throw new Error(`${command}: ${outcome.message}`);
  const lines = listLines(outcome.value);
  return lines.reduce((deepest, line) => (depthOf(line) > depthOf(deepest) ? line : deepest));
}

function depthOf(line: CommandLine): number {
  let depth = 0;
  for (let at = line; at.runner !== null; at = at.runner.line) depth += 1;
  return depth;
}

/** A command, the text that replaces its deepest line, the top command that gives, and what it prints. */
const lifts: { command: string; replacement: string; lifted: string; prints: string }[] = [
  {
    command: "bash -c 'echo a'",
    replacement: `echo "it's" | tr a-z A-Z`,
    lifted: `bash -c 'echo "it'\\''s" | tr a-z A-Z'`,
    prints: "IT'S\n",
  },
  {
    command: 'eval echo a',
    replacement: 'echo b; echo c',
    lifted: "eval 'echo b; echo c'",
    prints: 'b\nc\n',
  },
  {
    command: `bash -c "eval 'echo a'" && echo after`,
    replacement: `echo "x y" $((1 + 2))`,
    lifted: `bash -c 'eval '\\''echo "x y" $((1 + 2))'\\''' && echo after`,
    prints: 'x y 3\nafter\n',
  },
  {
    command: 'find . -maxdepth 0 -exec echo a {} \\;',
    replacement: 'echo b {}',
    lifted: 'find . -maxdepth 0 -exec echo b {} \\;',
    prints: 'b .\n',
  },
  {
    command: "find . -maxdepth 0 -exec true \\; -exec sh -c 'echo a' \\;",
    replacement: `echo "it's"`,
    lifted: `find . -maxdepth 0 -exec true \\; -exec sh -c 'echo "it'\\''s"' \\;`,
    prints: "it's\n",
  },
  {
    command: "flock lock -c 'echo a'",
    replacement: `echo "it's"`,
    lifted: `flock lock -c 'echo "it'\\''s"'`,
    prints: "it's\n",
  },
  {
    command: "script -qc'echo a' /dev/null",
    replacement: 'echo b',
    lifted: "script -qc'echo b' /dev/null",
    prints: 'b\r\n',
  },
  {
    command: "env -S 'echo a' b",
    replacement: 'echo c d',
    lifted: "env -S 'echo c d'",
    prints: 'c d\n',
  },
];

describe('liftToTop puts a changed child line back into the top command', () => {
  test.for(lifts)('$command', ({ command, replacement, lifted }) => {
    expect(liftToTop(deepestLine(command), replacement)).toBe(lifted);
  });

  test.for(lifts)(
    'parsed again, $lifted has the replacement as its deepest line',
    ({ replacement, lifted }) => {
      expect(deepestLine(lifted).source).toBe(replacement);
    },
  );

  test('the top line is its own replacement', () => {
    const outcome = parse('make check | tail');
    if (!outcome.ok) throw new Error(outcome.message);
    expect(liftToTop(outcome.value, 'make check')).toBe('make check');
  });
});

const hasBash = spawnSync('bash', ['--version']).status === 0;
describe.skipIf(!hasBash)(
  'a lifted command is one bash accepts, and prints what the replacement prints',
  () => {
    test.for(lifts)('$lifted', ({ lifted, prints }) => {
      expect(spawnSync('bash', ['-n', '-c', lifted]).status).toBe(0);
      expect(spawnSync('bash', ['-c', lifted], { encoding: 'utf8', cwd: '/' }).stdout).toBe(prints);
    });
  },
);

describe('shellQuote', () => {
  test.for([
    ['plain', 'plain'],
    ['tmp/out.log', 'tmp/out.log'],
    ['a b', "'a b'"],
    ["it's", `'it'\\''s'`],
    ['', "''"],
    ['$HOME', "'$HOME'"],
  ])('%s -> %s', ([text, want]) => expect(shellQuote(text as string)).toBe(want));
});
