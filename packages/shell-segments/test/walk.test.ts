import { describe, expect, test } from 'vitest';
import { frameDepth } from '../src/frame-depth.ts';
import { parse } from '../src/parse.ts';
import type { CommandLine } from '../src/types.ts';
import { listLines, nestedRunBy, walkSegments } from '../src/walk.ts';

function topLine(command: string): CommandLine {
  const outcome = parse(command);
  if (!outcome.ok) throw new Error(`${command}: ${outcome.message}`);
  return outcome.value;
}

/** Each visit as `text @ the sources of its shells`, the top line's written as `top`. */
const visitsOf = (command: string): string[] =>
  [...walkSegments(topLine(command))].map(
    ({ segment, shells }) =>
      `${segment.text} @ ${shells.map((line) => (line.runner === null ? 'top' : line.source)).join(' > ')}`,
  );

describe('walkSegments: every segment at every depth, each followed by the lines it runs', () => {
  test.for([
    // positive control: the string of bash -c comes right after the bash segment
    ["bash -c 'git push'; ls", ["bash -c 'git push' @ top", 'git push @ top > git push', 'ls @ top']],
    [
      "a; bash -c 'b; eval c'; find . -exec d \\; -exec sh -c 'e' \\;; f",
      [
        'a @ top',
        "bash -c 'b; eval c' @ top",
        'b @ top > b; eval c',
        'eval c @ top > b; eval c',
        'c @ top > b; eval c > c',
        "find . -exec d \\; -exec sh -c 'e' \\; @ top",
        'd @ top > d',
        "sh -c 'e' @ top > sh -c 'e'",
        "e @ top > sh -c 'e' > e",
        'f @ top',
      ],
    ],
    [
      "echo $(bash -c 'x') y; z",
      ["echo $(bash -c 'x') y @ top", "bash -c 'x' @ top", 'x @ top > x', 'z @ top'],
    ],
    ['bash -c "$CMD"; ls', ['bash -c "$CMD" @ top', 'ls @ top']],
    ['git push', ['git push @ top']],
    ['', []],
  ] as [string, string[]][])('%s', ([command, want]) => expect(visitsOf(command)).toEqual(want));

  test('the line of a visit holds its segment, and the shells end with that line', () => {
    for (const { segment, line, shells } of walkSegments(topLine("x | bash -c 'y & eval z'"))) {
      expect(line.segments).toContain(segment);
      expect(shells.at(-1)).toBe(line);
      shells.slice(1).forEach((shell, at) => {
        expect(shell.runner?.line).toBe(shells[at]);
      });
    }
  });
});

describe('depth is derived, never stored', () => {
  test('a line’s nesting depth is the length of its shells chain less one', () => {
    const depths = [...walkSegments(topLine(`ls; bash -c "eval 'git push'"`))].map(({ segment, shells }) => [
      segment.text,
      shells.length - 1,
    ]);
    expect(depths).toEqual([
      ['ls', 0],
      [`bash -c "eval 'git push'"`, 0],
      ["eval 'git push'", 1],
      ['git push', 2],
    ]);
  });

  test('frameDepth counts the frames under the line’s own main list, at any nesting depth', () => {
    const frames = [...walkSegments(topLine("echo $(bash -c '(a $(b))')"))].map(({ segment }) => [
      segment.text,
      frameDepth(segment),
    ]);
    expect(frames).toEqual([
      ["echo $(bash -c '(a $(b))')", 0],
      ["bash -c '(a $(b))'", 1],
      ['a $(b)', 1],
      ['b', 2],
    ]);
  });
});

test('listLines: the top line first, then depth first, in the walk’s order', () => {
  const sources = listLines(
    topLine("a $(bash -c 'b') && find . -exec c \\; -exec eval d \\;; bash -c 'e'"),
  ).map((line) => line.source);
  expect(sources).toEqual([
    "a $(bash -c 'b') && find . -exec c \\; -exec eval d \\;; bash -c 'e'",
    'b',
    'c',
    'eval d',
    'd',
    'e',
  ]);
});

test('nestedRunBy: the lines one segment runs, read or not', () => {
  const line = topLine('find . -exec a \\; -exec sh -c "$X" \\; ; eval b');
  const [find, evalB] = line.segments;
  if (!find || !evalB) throw new Error('expected two segments');
  expect(nestedRunBy(line, find).map((nested) => (nested.ok ? nested.line.source : nested.reason))).toEqual([
    'a',
    'sh -c "$X"',
  ]);
  expect(nestedRunBy(line, evalB).map((nested) => nested.ok && nested.line.source)).toEqual(['b']);
});
