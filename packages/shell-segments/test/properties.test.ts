import fc from 'fast-check';
import { expect, test } from 'vitest';
import { headText, unwrapLaunchers } from '../src/launchers.ts';
import { parseNested } from '../src/nested.ts';
import { parse, parseCommandLine } from '../src/parse.ts';
import { findStatusCaptures } from '../src/status-captures.ts';
import type { CommandLineOutcome, ParseOutcome } from '../src/types.ts';
import { listLines, walkSegments } from '../src/walk.ts';

/** Every text a successful outcome reports is the slice of the input at its offsets. */
function assertSlices(input: string, outcome: ParseOutcome): void {
  if (!outcome.ok) {
    expect(['syntax', 'too-long', 'not-text']).toContain(outcome.reason);
    expect(typeof outcome.message).toBe('string');
    return;
  }
  expect(outcome.source).toBe(input);
  outcome.segments.forEach((segment, index) => {
    expect(segment.index).toBe(index);
    expect(input.slice(segment.start, segment.end)).toBe(segment.text);
    expect(segment.depth).toBe(segment.context.length - 1);
    expect(segment.context[0]?.kind).toBe('main');
    for (const word of [...segment.argv, ...segment.redirects.map((r) => r.target)]) {
      expect(input.slice(word.start, word.end)).toBe(word.text);
      if (word.value === null) expect(word.dynamic).toBe(true);
    }
    for (const assign of segment.assigns) expect(input.slice(assign.start, assign.end)).toBe(assign.text);
    for (const redirect of segment.redirects) {
      if (redirect.heredoc)
        expect(input.slice(redirect.heredoc.start, redirect.heredoc.end)).toBe(redirect.heredoc.body);
    }
    headText(segment);
    unwrapLaunchers(segment.argv);
    parseNested(segment);
  });
  findStatusCaptures(outcome);
  assertTree(input, parseCommandLine(input));
}

/** Every line of the tree: each segment's text a slice of its own line's source, each runner a span of the line above. */
function assertTree(input: string, outcome: CommandLineOutcome): void {
  if (!outcome.ok) {
    expect(['syntax', 'too-long', 'not-text']).toContain(outcome.reason);
    return;
  }
  expect(outcome.value.source).toBe(input);
  // Collected, then asserted once: an expect per word makes the property too slow to run often.
  const wrong: string[] = [];
  const lines = listLines(outcome.value);
  for (const line of lines) {
    line.segments.forEach((segment, index) => {
      if (segment.index !== index) wrong.push(`index ${segment.index} at ${index}`);
      if (line.source.slice(segment.start, segment.end) !== segment.text)
        wrong.push(`segment ${segment.text}`);
      if (segment.context[0]?.kind !== 'main') wrong.push(`frames of ${segment.text}`);
      for (const word of segment.argv)
        if (line.source.slice(word.start, word.end) !== word.text) wrong.push(`word ${word.text}`);
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
        line.source.slice(runner.start, runner.end) !== nested.line.source
      )
        wrong.push(`find action ${nested.line.source}`);
    }
  }
  const visits = [...walkSegments(outcome.value)].length;
  if (visits !== lines.reduce((sum, line) => sum + line.segments.length, 0)) wrong.push(`${visits} visits`);
  expect(wrong).toEqual([]);
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
