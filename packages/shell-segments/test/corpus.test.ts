import { spawnSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { loadSyntax, parseTree } from '../src/load-parser.ts';
import type { ShNode } from '../src/mvdan-nodes.ts';
import { parse } from '../src/parse.ts';
import { handledNodeKinds } from '../src/segmenter.ts';
import { shapesOf } from './build.ts';
import { corpus } from './corpus.ts';

const allCommands = corpus.map((c) => c.command);

describe('the corpus', () => {
  test.for(corpus)('$command', ({ command, want }) => {
    expect(shapesOf(parse(command))).toEqual(want);
  });

  test('has at least 150 commands, none twice', () => {
    expect(allCommands.length).toBeGreaterThanOrEqual(150);
    expect(new Set(allCommands).size).toBe(allCommands.length);
  });

  test('every segment text is the slice of the command at its offsets', () => {
    for (const command of allCommands) {
      const outcome = parse(command);
      if (!outcome.ok) throw new Error(`${command}: ${outcome.message}`);
      for (const segment of outcome.value.segments) {
        expect(command.slice(segment.start, segment.end)).toBe(segment.text);
        for (const word of segment.argv) expect(command.slice(word.start, word.end)).toBe(word.text);
      }
    }
  });
});

const hasBash = spawnSync('bash', ['--version']).status === 0;

describe.skipIf(!hasBash)('every corpus command is one bash accepts', () => {
  test.for(allCommands)('%s', (command) => {
    // extglob is a parse-time option in bash; mvdan always reads @(..).
    const result = spawnSync('bash', ['-n', '-O', 'extglob', '-c', command], { encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });
});

function kindsIn(command: string): Set<string> {
  const syntax = loadSyntax();
  const kinds = new Set<string>();
  syntax.Walk(parseTree(command), (node: ShNode | null) => {
    if (node) kinds.add(syntax.NodeType(node));
    return true;
  });
  return kinds;
}

test('every node kind the segmenter handles appears in the corpus', () => {
  const seen = new Set(allCommands.flatMap((command) => [...kindsIn(command)]));
  expect(handledNodeKinds.filter((kind) => !seen.has(kind))).toEqual([]);
});
