import { spawnSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { parse } from '../src/parse.ts';

// bash runs the command after a subscripted assignment (warning that NAME[i] is not a valid
// identifier); mvdan-sh refuses the line. The kit reads it as bash does.

const shapeOf = (command: string) => {
  const outcome = parse(command);
  if (!outcome.ok) return outcome.reason;
  return outcome.value.segments.map((segment) => ({
    argv: segment.argv.map((word) => word.text),
    assigns: segment.assigns.map((assign) => `${assign.text}${assign.indexed ? ' (indexed)' : ''}`),
  }));
};

const rows: [string, ReturnType<typeof shapeOf>][] = [
  // positive control
  ['FOO[0]=x make check', [{ argv: ['make', 'check'], assigns: ['FOO[0]=x (indexed)'] }]],
  ['A=1 FOO[0]=x make', [{ argv: ['make'], assigns: ['A=1', 'FOO[0]=x (indexed)'] }]],
  ['FOO[0]=x A="b c" make', [{ argv: ['make'], assigns: ['FOO[0]=x (indexed)', 'A="b c"'] }]],
  ['X[1]=2 Y[$i]=3 make', [{ argv: ['make'], assigns: ['X[1]=2 (indexed)', 'Y[$i]=3 (indexed)'] }]],
  ["FOO['k']=v make", [{ argv: ['make'], assigns: ["FOO['k']=v (indexed)"] }]],
  ['FOO[0]+=x make', [{ argv: ['make'], assigns: ['FOO[0]+=x (indexed)'] }]],
  [
    'echo é; FOO[0]=x make | tail',
    [
      { argv: ['echo', 'é'], assigns: [] },
      { argv: ['make'], assigns: ['FOO[0]=x (indexed)'] },
      { argv: ['tail'], assigns: [] },
    ],
  ],
  // the other direction: what stays an argument, a command, or a refusal
  ['FOO[0]=x', [{ argv: [], assigns: ['FOO[0]=x (indexed)'] }]],
  ['X[0]=1 ls Y[1]=2', [{ argv: ['ls', 'Y[1]=2'], assigns: ['X[0]=1 (indexed)'] }]],
  ['X[0]=1 "Y"=2 make', [{ argv: ['"Y"=2', 'make'], assigns: ['X[0]=1 (indexed)'] }]],
  ['echo FOO[0]=x make', [{ argv: ['echo', 'FOO[0]=x', 'make'], assigns: [] }]],
  ['A=(1 2) make', 'syntax'],
];

describe('subscripted prefix assignments', () => {
  test.for(rows)('%s', ([command, shape]) => expect(shapeOf(command)).toEqual(shape));
  test('in a nested line too', () => {
    const outcome = parse("bash -c 'FOO[0]=x make check'");
    const nested = outcome.ok ? outcome.value.nested[0] : undefined;
    expect(nested?.ok && nested.line.segments[0]?.argv.map((word) => word.value)).toEqual(['make', 'check']);
  });
});

const hasBash = spawnSync('bash', ['--version']).status === 0;
describe.skipIf(!hasBash)('bash runs the command after them', () => {
  test.for(['FOO[0]=x echo ran', 'A=1 FOO[0]=x B=2 echo ran', 'X[1]=2 Y[$i]=3 echo ran'])('%s', (command) => {
    expect(spawnSync('bash', ['-c', command], { encoding: 'utf8' }).stdout).toBe('ran\n');
  });
});
