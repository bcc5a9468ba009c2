import fc from 'fast-check';
import { expect, test } from 'vitest';
import { headText, unwrapLaunchers } from '../src/launchers.ts';
import { parse } from '../src/parse.ts';
import { findStatusCaptures } from '../src/status-captures.ts';
import type { CommandLine, ParseOutcome } from '../src/types.ts';
import { listLines, walkSegments } from '../src/walk.ts';

/**
 * Every text an outcome reports is the slice of its own line's source at its offsets, in every
 * command line of the tree, and each runner is a span of the line above. Violations are collected
 * and asserted once: an expect per word makes the property too slow to run often.
 */
function assertSlices(input: string, outcome: ParseOutcome): void {
  if (!outcome.ok) {
    expect(['syntax', 'too-long', 'not-text']).toContain(outcome.reason);
    expect(typeof outcome.message).toBe('string');
    return;
  }
  expect(outcome.value.source).toBe(input);
  const wrong: string[] = [];
  const lines = listLines(outcome.value);
  for (const line of lines) {
    wrong.push(...wrongSlicesIn(line));
    findStatusCaptures(line);
  }
  const visits = [...walkSegments(outcome.value)].length;
  if (visits !== lines.reduce((sum, line) => sum + line.segments.length, 0)) wrong.push(`${visits} visits`);
  expect(wrong).toEqual([]);
}

function wrongSlicesIn(line: CommandLine): string[] {
  const wrong: string[] = [];
  const isSlice = (text: string, start: number, end: number) => line.source.slice(start, end) === text;
  line.segments.forEach((segment, index) => {
    if (segment.index !== index) wrong.push(`index ${segment.index} at ${index}`);
    if (!isSlice(segment.text, segment.start, segment.end)) wrong.push(`segment ${segment.text}`);
    if (segment.context[0]?.kind !== 'main') wrong.push(`frames of ${segment.text}`);
    for (const word of [...segment.argv, ...segment.redirects.map((redirect) => redirect.target)]) {
      if (!isSlice(word.text, word.start, word.end)) wrong.push(`word ${word.text}`);
      if (word.value === null && !word.dynamic) wrong.push(`static null ${word.text}`);
    }
    for (const assign of segment.assigns)
      if (!isSlice(assign.text, assign.start, assign.end)) wrong.push(`assign ${assign.text}`);
    for (const { heredoc } of segment.redirects)
      if (heredoc && !isSlice(heredoc.body, heredoc.start, heredoc.end))
        wrong.push(`heredoc ${heredoc.body}`);
    headText(segment);
    unwrapLaunchers(segment.argv);
  });
  for (const nested of line.nested) {
    const runner = nested.ok ? nested.line.runner : nested.runner;
    if (runner === null || runner.line !== line || !line.segments.includes(runner.segment))
      wrong.push(`runner of ${nested.ok ? nested.line.source : nested.reason}`);
    else if (runner.start < 0 || runner.start > runner.end || runner.end > line.source.length)
      wrong.push(`span ${runner.start}-${runner.end}`);
    else if (
      nested.ok &&
      runner.kind === 'find-exec' &&
      !isSlice(nested.line.source, runner.start, runner.end)
    )
      wrong.push(`find action ${nested.line.source}`);
  }
  return wrong;
}

test('any string in: an outcome out, never a throw', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 80 }), (input) => {
      assertSlices(input, parse(input));
    }),
    { numRuns: 1000 },
  );
}, 30_000);

const fragment = fc.constantFrom(
  'git',
  'push',
  'make',
  'check',
  ' ',
  ' ',
  ' ',
  '|',
  '|&',
  '&&',
  '||',
  ';',
  '&',
  '\n',
  '!',
  '(',
  ')',
  '{ ',
  '; }',
  '$(',
  '`',
  '<(',
  '>(',
  '"',
  "'",
  '$',
  '$?',
  '${x}',
  '$((',
  '))',
  '<<',
  '<<<',
  '>',
  '2>&1',
  '<<EOF\n',
  '\nEOF\n',
  'EOF',
  '#',
  '\\',
  '\\\n',
  'x=1 ',
  'if ',
  'then ',
  'fi',
  'for i in 1; do ',
  'done',
  'case x in a) ',
  ';;',
  'esac',
  'é',
  '😀',
  '\ud800',
  '[[ ',
  ' ]]',
  '(( ',
  'a << 2 | b',
  "$'\\n'",
  'bash -c ',
  'eval ',
  'sudo -u x ',
  'env -S ',
  'find . -exec ',
  ' \\;',
  ' {} +',
);

test('shell-ish strings from a grammar of fragments: an outcome, and every text a slice', () => {
  fc.assert(
    fc.property(fc.array(fragment, { maxLength: 24 }), (fragments) => {
      const input = fragments.join('');
      assertSlices(input, parse(input));
    }),
    { numRuns: 3000 },
  );
}, 30_000);

// A grammar that mostly builds valid commands: words, lists, pipelines, groups and substitutions.
const { list } = fc.letrec<{ word: string; simple: string; list: string }>((tie) => ({
  word: fc.oneof(
    { maxDepth: 3, depthIdentifier: 'shell', withCrossShrink: true },
    fc.constantFrom(
      'git',
      'push',
      'make',
      '-x',
      '"a b"',
      "'c|d'",
      '$x',
      '"$?"',
      '${a[0]}',
      '$((a << 2 | b))',
      'é',
      '😀',
      '*.c',
      "$'\\t'",
    ),
    tie('list').map((inner) => `$(${inner})`),
    tie('list').map((inner) => `<(${inner})`),
  ),
  simple: fc
    .tuple(
      fc.array(tie('word'), { minLength: 1, maxLength: 4 }),
      fc.constantFrom('', ' 2>&1', ' > out', ' <<<x', ' <<EOF\nbody $y\nEOF\n'),
    )
    .map(([words, redirect]) => `${words.join(' ')}${redirect}`),
  list: fc.oneof(
    { maxDepth: 3, depthIdentifier: 'shell', withCrossShrink: true },
    tie('simple'),
    fc
      .tuple(tie('simple'), fc.constantFrom(' | ', ' |& ', ' && ', ' || ', '; ', '\n', ' & '), tie('list'))
      .map(([a, op, b]) => `${a}${op}${b}`),
    tie('list').map((inner) => `(${inner})`),
    tie('list').map((inner) => `{ ${inner}\n}`),
    tie('list').map((inner) => `! ${inner}`),
    tie('list').map((inner) => `bash -c '${inner.replace(/'/g, '')}'`),
    tie('list').map((inner) => `eval "${inner.replace(/["\\$`]/g, '')}"`),
    tie('simple').map((inner) => `find . -exec ${inner} \\; -exec ${inner} {} +`),
  ),
}));

test('commands from a grammar: they parse, and every text is a slice', () => {
  let parsed = 0;
  fc.assert(
    fc.property(list, (input) => {
      const outcome = parse(input);
      if (outcome.ok) parsed += 1;
      assertSlices(input, outcome);
    }),
    { numRuns: 600 },
  );
  // The property must not pass by rejecting everything: most grammar output is valid bash.
  expect(parsed).toBeGreaterThan(400);
}, 60_000);
