import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CliIO } from '@kit/gate-approval';
import { runCli } from '@kit/gate-approval';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { guardDefinition } from '../src/guard.ts';
import { makeFixtures } from './fixtures.ts';

let fixtures: ReturnType<typeof makeFixtures>;
let home: string;
beforeAll(() => {
  fixtures = makeFixtures();
  home = realpathSync(mkdtempSync(join(tmpdir(), 'git-write-gate-home-')));
});
afterAll(() => {
  fixtures.cleanup();
  rmSync(home, { recursive: true, force: true });
});

function io(cwd: string, env: Record<string, string> = {}): CliIO & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { cwd, env, home, stdout: (text) => out.push(text), stderr: (text) => err.push(text), out, err };
}

const handlerOf = (settingsFile: string) => {
  const settings = JSON.parse(readFileSync(settingsFile, 'utf8'));
  return settings.hooks.PreToolUse.find((entry: { matcher: string }) => entry.matcher === 'Bash').hooks[0];
};

describe('the shared CLI, wired for this gate', () => {
  test('--version is the package version', async () => {
    const cli = io(fixtures.outside);
    expect(await runCli(guardDefinition, ['--version'], cli)).toBe(0);
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    expect(cli.out.join('').trim()).toBe(manifest.version);
  });
  test('install --project writes one Bash handler with timeout 5 and no onFailure', async () => {
    expect(await runCli(guardDefinition, ['install', '--project'], io(fixtures.plain))).toBe(0);
    const handler = handlerOf(join(fixtures.plain, '.claude/settings.json'));
    expect(handler).toEqual({
      type: 'command',
      command: 'node',
      args: [join(fixtures.plain, '.claude/hooks/git-write-gate.cjs')],
      timeout: 5,
    });
  });
  test('install --strict adds onFailure: block and says what it costs', async () => {
    const cli = io(fixtures.outside);
    expect(await runCli(guardDefinition, ['install', '--project', '--strict'], cli)).toBe(0);
    expect(handlerOf(join(fixtures.outside, '.claude/settings.json'))).toMatchObject({
      timeout: 5,
      onFailure: 'block',
    });
    expect(cli.out.join('')).toMatch(/onFailure|block/);
  });
  test('explain runs the same evaluate: a deny in the managed repository, none in the plain one', async () => {
    const managed = io(fixtures.managed);
    await runCli(guardDefinition, ['explain', 'git push origin main', '--json'], managed);
    expect(JSON.parse(managed.out.join(''))).toMatchObject({ verdict: 'deny', rule: 'push' });
    const plain = io(fixtures.plain);
    await runCli(guardDefinition, ['explain', 'git push origin main', '--json'], plain);
    expect(JSON.parse(plain.out.join(''))).toMatchObject({ verdict: 'none' });
  });
  test('the positive control denies', async () => {
    const control = await guardDefinition.positiveControl();
    try {
      const verdict = await guardDefinition.evaluate(control.payload, {
        env: {},
        raw: '',
        guard: 'git-write-gate',
        deadline: Date.now() + 1000,
      });
      expect(verdict.kind).toBe('deny');
    } finally {
      await control.cleanup?.();
    }
  });
  test('the hook command behaves as the bundle, strict policy included', async () => {
    const strict = {
      ...io(fixtures.outside, { TAGOUT_HOOKS_STRICT: '1' }),
      stdin: async () => '{"command":"git push"',
    };
    expect(await runCli(guardDefinition, ['hook'], strict)).toBe(2);
    expect(strict.err.join('')).toMatch(/^git-write-gate: cannot judge/);
  });
});
