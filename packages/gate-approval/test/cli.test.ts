import { describe, expect, test } from 'vitest';
import { recordingIO, tempTree } from '@kit/test-kit';
import { bashPayload, runCli } from '../src/index.ts';
import { cli, makeGuard } from './cli-harness.ts';

const guard = makeGuard();
const where = { cwd: tempTree(), home: tempTree() };

describe('arguments', () => {
  test('--version', async () =>
    expect(await cli(guard, ['--version'], where)).toEqual({ code: 0, stdout: '0.0.0-test\n', stderr: '' }));
  test('--help lists the commands, the guard commands and every switch', async () => {
    const result = await cli(guard, ['--help'], where);
    expect(result.code).toBe(0);
    for (const text of [
      'install [--host NAME] [--user|--project|--local] [--strict] [--monitor] [--transport mcp|command] [--dry-run]',
      '--host claude (default), codex, gemini or copilot',
      'uninstall',
      "explain '<command>'",
      'doctor',
      ' hook ',
      'say-hi',
      'EXAMPLE_GUARD=off | on (legacy: OLD_EXAMPLE_GUARD)',
      'KIT_HOOKS_TRACE',
    ]) {
      expect(result.stdout).toContain(text);
    }
    expect((await cli(guard, [], where)).stdout).toBe(result.stdout);
  });
  test.for([
    [['frobnicate'], 'example-guard: unknown command frobnicate; run `example-guard --help`\n'],
    [['--frob'], 'example-guard: unknown option --frob; run `example-guard --help`\n'],
    [['install', '--global'], 'install: unknown option --global; run `example-guard --help`\n'],
    [['install', 'now'], 'install: unexpected argument now; run `example-guard --help`\n'],
    [['uninstall', '--strict'], 'uninstall: unknown option --strict; run `example-guard --help`\n'],
    [['explain', 'ls', '--cwd'], 'explain: option --cwd needs a value; run `example-guard --help`\n'],
    [['doctor', '--dry-run'], 'doctor: unknown option --dry-run; run `example-guard --help`\n'],
  ] as const)('%j is one line on stderr, exit 1', async ([argv, message]) => {
    expect(await cli(guard, [...argv], where)).toEqual({ code: 1, stdout: '', stderr: message });
  });
  test.for([
    [
      'install',
      'usage: example-guard install [--host NAME] [--user|--project|--local] [--strict] [--monitor] [--transport mcp|command] [--dry-run]',
    ],
    ['uninstall', 'usage: example-guard uninstall [--host NAME] [--user|--project|--local] [--dry-run]'],
    ['explain', "usage: example-guard explain '<command>' [--cwd DIR] [--json]"],
    ['doctor', 'usage: example-guard doctor [--host NAME] [--user|--project|--local]'],
    ['hook', 'usage: example-guard hook [--host NAME]'],
    ['say-hi', 'usage: example-guard say-hi\n  a guard-only command'],
  ] as const)('%s --help prints its usage and does nothing else', async ([command, first]) => {
    for (const flag of ['--help', '-h']) {
      const result = await cli(guard, [command, flag], where);
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(result.stdout.startsWith(first)).toBe(true);
    }
    expect((await cli(guard, [command, '--project', '--help'], where)).stdout.startsWith(first)).toBe(true);
  });
  test('a guard command with its own usage prints that', async () => {
    const own = {
      ...guard,
      commands: {
        tally: { summary: 'x', usage: 'usage: example-guard tally [--json]', run: async () => 1 },
      },
    };
    expect(await cli(own, ['tally', '--help'], where)).toEqual({
      code: 0,
      stdout: 'usage: example-guard tally [--json]\n',
      stderr: '',
    });
  });
  test('after --, --help is an argument: explain judges it', async () => {
    expect((await cli(guard, ['explain', '--', '--help'], where)).stdout).toMatch(/^verdict: none/);
  });
  test('a guard command gets the rest of argv', async () => {
    expect(await cli(guard, ['say-hi', 'there'], where)).toEqual({
      code: 0,
      stdout: 'hi there\n',
      stderr: '',
    });
  });
  test('a guard command that throws: one line, exit 1', async () => {
    const broken = {
      ...guard,
      commands: {
        boom: {
          summary: 'x',
          run: async () => {
            throw new Error('kaput');
          },
        },
      },
    };
    expect(await cli(broken, ['boom'], where)).toEqual({
      code: 1,
      stdout: '',
      stderr: 'example-guard boom: kaput\n',
    });
  });
});

describe('hook: the same runtime and evaluate as the bundle', () => {
  async function hook(stdin: string, env: Record<string, string> = {}) {
    const io = recordingIO({ ...where, env, stdin: async () => stdin });
    return { code: await runCli(guard, ['hook'], io), stdout: io.out(), stderr: io.err() };
  }
  test('denies the control', async () => {
    const result = await hook(JSON.stringify(bashPayload('shred x')));
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
  });
  test.for(['', '[]', '{', 'null'])('%j: no opinion', async (stdin) =>
    expect(await hook(stdin)).toEqual({ code: 0, stdout: '', stderr: '' }),
  );
  test('a strict onFailOpen on the definition refuses, as the bundle would', async () => {
    const strict = {
      ...guard,
      onFailOpen: () => ({ kind: 'refuse' as const, reason: 'example-guard: cannot judge' }),
    };
    const io = recordingIO({ ...where, stdin: async () => '{' });
    const code = await runCli(strict, ['hook'], io);
    expect([code, io.err()]).toEqual([2, 'example-guard: cannot judge\n']);
  });
});
