import { describe, expect, test } from 'vitest';
import { parseNested } from '../src/nested.ts';
import { parse } from '../src/parse.ts';
import type { Segment } from '../src/types.ts';
import { inside, piped, seg, shapesOf } from './build.ts';

function segmentsOf(command: string): Segment[] {
  const outcome = parse(command);
  if (!outcome.ok) throw new Error(`${command}: ${outcome.message}`);
  return outcome.segments;
}

const nestedOf = (command: string) => parseNested(segmentsOf(command)[0] as Segment);

describe('the string becomes commands of their own', () => {
  test.for([
    ["bash -lc 'git push'", 'git push'],
    ['sh -c "a | b"', 'a | b'],
    ["bash -euo pipefail -c 'make check'", 'make check'],
    ["bash -c -- 'git push'", 'git push'],
    ["zsh -c 'git push' zsh-name arg", 'git push'],
    ["/bin/dash -ec 'git push'", 'git push'],
    ['eval "git commit"', 'git commit'],
    ['eval git commit -m wip', 'git commit -m wip'],
    ['eval \'git\' "commit"', 'git commit'],
    ["sudo -u x bash -c 'git push'", 'git push'],
    ["timeout 5 bash -c 'git push'", 'git push'],
    ["env -S 'git push' origin", "git push 'origin'"],
  ])('%s -> %s', ([command, source]) => {
    expect(nestedOf(command as string)).toMatchObject({ ok: true, source });
  });

  test('the frames start with the outer chain, then a nested frame that carries the outer placement', () => {
    const [outer] = segmentsOf("echo $(bash -c 'a | b') | tail");
    const holder = segmentsOf("echo $(bash -c 'a | b') | tail")[1] as Segment;
    const outcome = parseNested(holder);
    if (!outcome?.ok) throw new Error('expected a nested outcome');
    expect(shapesOf(outcome)).toEqual([
      inside('command-substitution>nested', piped(0, 2, '|', seg('a'))),
      inside('command-substitution>nested', piped(1, 2, null, seg('b'))),
    ]);
    const frames = outcome.segments[0]?.context ?? [];
    expect(frames.slice(0, 2)).toEqual(holder.context);
    expect(frames[2]).toMatchObject({ kind: 'nested', owner: holder.index, start: 15, end: 22 });
    expect(new Set(frames.map((frame) => frame.id)).size).toBe(frames.length);
    expect(outcome.segments[0]?.depth).toBe(2);
    expect(outer?.pipeline?.op).toBe('|');
  });

  test('a nested frame carries a pipe after the outer command', () => {
    const outcome = nestedOf("bash -c 'make check' | tail");
    expect(outcome?.ok && outcome.segments[0]?.context[1]?.placement?.pipeline).toMatchObject({
      index: 0,
      op: '|',
    });
  });
});

describe('no string, or one only known at run time', () => {
  test.for([
    'bash script.sh',
    'bash',
    'git push',
    'eval',
    'sh -o pipefail script.sh',
    'bash -c',
    'bash $flags script.sh',
  ])('%s -> null', (command) => {
    expect(nestedOf(command)).toBeNull();
  });

  test.for([
    'bash -c "$CMD"',
    'eval "$(ssh-agent -s)"',
    'eval git $sub',
    'sh -c $1',
    `bash $flags -c 'git push'`,
  ])('%s -> dynamic', (command) => {
    expect(nestedOf(command)).toMatchObject({ ok: false, reason: 'dynamic' });
  });

  test('a nested string that does not parse is a syntax outcome', () => {
    expect(nestedOf(`bash -c "echo 'x"`)).toMatchObject({ ok: false, reason: 'syntax' });
  });
});
