import { spawnSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { evaluate } from '../src/evaluate.ts';
import { cases } from './cases.ts';
import { bashCall, fakeContext } from './fake-context.ts';

const allCommands = cases.flatMap((row) => row.commands.map((command) => `${row.cwd ?? ''}\u0000${command}`));

describe.for(cases)('$name', ({ commands, want, rule, cwd }) => {
  test.for(commands)('%s', (command) => {
    const verdict = evaluate(bashCall(command, cwd), fakeContext());
    expect(verdict.kind === 'deny' ? 'deny' : 'silent').toBe(want);
    if (rule !== undefined) expect(verdict).toMatchObject({ rule });
  });
});

test('no command appears twice in one folder', () =>
  expect(new Set(allCommands).size).toBe(allCommands.length));

test('the positive control is the first row and denies', () => {
  expect(cases[0]?.want).toBe('deny');
  expect(evaluate(bashCall(cases[0]?.commands[0] ?? ''), fakeContext()).kind).toBe('deny');
});

const hasBash = spawnSync('bash', ['--version']).status === 0;
describe.skipIf(!hasBash)('every case is a command bash accepts', () => {
  test.for(cases.flatMap((row) => row.commands))('%s', (command) => {
    expect(spawnSync('bash', ['-n', '-c', command]).status).toBe(0);
  });
});
