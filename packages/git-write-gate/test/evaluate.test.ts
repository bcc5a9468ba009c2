import { spawnSync } from 'node:child_process';
import { tempDir } from '@kit/test-kit';
import { describe, expect, test } from 'vitest';
import { realContext } from '../src/context.ts';
import { evaluate } from '../src/evaluate.ts';
import { cases } from './cases.ts';
import { bashCall, fakeContext, realWorld } from './fake-context.ts';

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

// The same table on real repositories: the fake world built in a temp folder with real git, each
// command's and cwd's /repos and /outside moved under it, judged with the real probes.
// POSIX paths in the commands: the Windows runners skip it.
const onWindows = process.platform === 'win32';
const moved = onWindows ? (text: string) => text : realWorld(tempDir('gwg-cases'));

describe.skipIf(onWindows).for(cases)('on real repositories: $name', ({ commands, want, rule, cwd }) => {
  test.for(commands)('%s', (command) => {
    const verdict = evaluate(
      bashCall(moved(command), moved(cwd ?? '/repos/managed')),
      realContext({ env: {}, raw: '' }),
    );
    expect(verdict.kind === 'deny' ? 'deny' : 'silent').toBe(want);
    if (rule !== undefined) expect(verdict).toMatchObject({ rule });
  });
});

const hasBash = spawnSync('bash', ['--version']).status === 0;
describe.skipIf(!hasBash)('every case is a command bash accepts', () => {
  test.for(cases.flatMap((row) => row.commands))('%s', (command) => {
    expect(spawnSync('bash', ['-n', '-c', command]).status).toBe(0);
  });
});
