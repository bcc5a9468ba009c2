import { tempTree } from '@kit/test-kit';
import { describe, expect, test, vi } from 'vitest';
import type { GuardDefinition } from '../src/index.ts';
import { cli, makeGuard } from './cli-harness.ts';

// Each test runs the CLI, doctor's positive control included: seconds on a loaded machine.
vi.setConfig({ testTimeout: 120_000 });

// A guard says why it judges nothing in a folder (GuardSpec.idleHere); the shared CLI prints it:
// doctor as a warning (installed and working, idle here), explain as a line and a JSON field.
const base = makeGuard();
const idleIn = (idleHere: GuardDefinition['idleHere']): GuardDefinition => ({ ...base, idleHere });
const words = 'this folder is not one the guard watches';

describe('the idle words of a guard', () => {
  test.for([
    ['words', (): string | null => words, true],
    ['null: it acts here (the control)', (): string | null => null, false],
    ['no hook', undefined, false],
    [
      'a hook that throws: no words, the command goes on',
      (): string | null => {
        throw new Error('boom');
      },
      false,
    ],
  ] as [string, GuardDefinition['idleHere'], boolean][])('%s', async ([, hook, shown]) => {
    const guard = idleIn(hook);
    const root = tempTree({ 'src/app.ts': '' });
    const home = tempTree();
    await cli(guard, ['install', '--project'], { cwd: root, home });
    const doctor = await cli(guard, ['doctor', '--project'], { cwd: root, home });
    expect(doctor.stdout.includes(`warn idle here: ${words}\n`)).toBe(shown);
    const explain = await cli(guard, ['explain', 'make test | tail'], { cwd: root, home });
    expect(explain.stdout.includes(`idle:    ${words}\n`)).toBe(shown);
    const json = await cli(guard, ['explain', 'make test | tail', '--json'], { cwd: root, home });
    expect(JSON.parse(json.stdout).idle).toBe(shown ? words : undefined);
  });

  test('the hook is asked about the folder the command looks at (explain --cwd)', async () => {
    const asked: string[] = [];
    const guard = idleIn((cwd) => {
      asked.push(cwd);
      return null;
    });
    const root = tempTree({ 'sub/x': '' });
    await cli(guard, ['explain', 'ls', '--cwd', 'sub'], { cwd: root, home: tempTree() });
    expect(asked).toEqual([`${root}/sub`]);
  });
});
