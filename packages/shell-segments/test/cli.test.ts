import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { type CliIO, main } from '../src/kit-segments.ts';

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

async function run(argv: string[], stdin = ''): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIO = {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    stdin: async () => stdin,
  };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}

describe('in process', () => {
  test('a command as arguments: the outcome as one line of JSON', async () => {
    const result = await run(['git', 'push', '|', 'tail']);
    expect(result.code).toBe(0);
    expect(result.stdout.trimEnd().split('\n')).toHaveLength(1);
    const outcome = JSON.parse(result.stdout);
    expect(outcome.value.source).toBe('git push | tail');
    expect(outcome.value.segments.map((s: { text: string }) => s.text)).toEqual(['git push', 'tail']);
  });

  test('the lines a segment runs, nested, each runner by its segment index', async () => {
    const result = await run(['make; bash -c \'eval git push\' && eval "$x"']);
    expect(JSON.parse(result.stdout)).toMatchObject({
      ok: true,
      value: {
        runner: null,
        nested: [
          {
            ok: true,
            line: {
              source: 'eval git push',
              runner: { segment: 1, kind: 'shell-string', start: 14, end: 29 },
              nested: [{ ok: true, line: { source: 'git push', runner: { segment: 0, kind: 'eval' } } }],
            },
          },
          { ok: false, runner: { segment: 2, kind: 'eval' }, reason: 'dynamic' },
        ],
      },
    });
  });

  test('a command on stdin', async () => {
    const result = await run([], 'make check; git push');
    expect(JSON.parse(result.stdout).value.segments).toHaveLength(2);
  });

  test('--pretty indents', async () => {
    const result = await run(['--pretty', 'ls']);
    expect(result.stdout).toContain('\n  "ok": true,');
  });

  test('-- ends the options', async () => {
    const result = await run(['--', '--pretty']);
    expect(JSON.parse(result.stdout).value.source).toBe('--pretty');
  });

  test('a parse failure: one line on stderr, exit 1', async () => {
    const result = await run(["echo 'x"]);
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr: "kit-segments: cannot parse (syntax): 1:6: reached EOF without closing quote '\n",
    });
  });

  test('--max-length', async () => {
    expect((await run(['--max-length', '3', 'make'])).code).toBe(1);
    expect((await run(['--max-length=4', 'make'])).code).toBe(0);
    expect((await run(['--max-length', 'x', 'make'])).code).toBe(2);
  });

  test('--version and --help', async () => {
    expect(await run(['--version'])).toEqual({ code: 0, stdout: `${manifest.version}\n`, stderr: '' });
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: kit-segments/);
  });

  test('an unknown option is a usage error', async () => {
    expect(await run(['--nope'])).toMatchObject({
      code: 2,
      stderr: 'kit-segments: unknown option --nope (see --help)\n',
    });
  });
});

describe('the built bin as a process', () => {
  const bin = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
  const spawn = (args: string[], input = '') => spawnSync(bin, args, { input, encoding: 'utf8' });

  test('is executable and starts with a shebang', () => {
    expect(readFileSync(bin, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(statSync(bin).mode & 0o111).not.toBe(0);
  });

  test('argument in, JSON out, exit 0', () => {
    const result = spawn(['make check | tail -5']);
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout).value.segments[0].pipeline).toMatchObject({
      index: 0,
      size: 2,
      op: '|',
    });
  });

  test('stdin in', () => {
    const result = spawn([], 'git push\n');
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout).value.source).toBe('git push');
  });

  test('a parse failure: exit 1, one line on stderr, nothing on stdout', () => {
    const result = spawn(['(']);
    expect([result.status, result.stdout, result.stderr.split('\n').length]).toEqual([1, '', 2]);
  });

  test('--version', () => {
    expect(spawn(['--version']).stdout).toBe(`${manifest.version}\n`);
  });
});
