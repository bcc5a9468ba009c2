import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '@kit/gate-approval';
import { installedHandler, type RecordingIO, recordingIO, tempDir } from '@kit/test-kit';
import { describe, expect, test } from 'vitest';
import { guardDefinition } from '../src/guard.ts';
import { makeFixtures } from './fixtures.ts';

const fixtures = makeFixtures();
const home = tempDir('git-write-gate-home');
const io = (cwd: string, env: Record<string, string> = {}): RecordingIO => recordingIO({ cwd, env, home });
const handlerOf = (settingsFile: string) => installedHandler(settingsFile, 'Bash');

describe('the shared CLI, wired for this gate', () => {
  test('--version is the package version', async () => {
    const cli = io(fixtures.outside);
    expect(await runCli(guardDefinition, ['--version'], cli)).toBe(0);
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    expect(cli.out().trim()).toBe(manifest.version);
  });
  test('install --project writes one Bash handler with timeout 5 and no onFailure', async () => {
    expect(await runCli(guardDefinition, ['install', '--project'], io(fixtures.plain))).toBe(0);
    const handler = handlerOf(join(fixtures.plain, '.claude/settings.json'));
    expect(handler).toEqual({
      type: 'command',
      command: 'node',
      args: ['${CLAUDE_PROJECT_DIR}/.claude/hooks/git-write-gate.cjs'],
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
    expect(cli.out()).toMatch(/onFailure|block/);
  });
  test('explain runs the same evaluate: a deny in the managed repository, none in the plain one', async () => {
    const managed = io(fixtures.managed);
    await runCli(guardDefinition, ['explain', 'git push origin main', '--json'], managed);
    expect(JSON.parse(managed.out())).toMatchObject({ verdict: 'deny', rule: 'push' });
    const plain = io(fixtures.plain);
    await runCli(guardDefinition, ['explain', 'git push origin main', '--json'], plain);
    expect(JSON.parse(plain.out())).toMatchObject({ verdict: 'none' });
  });
  test('the positive control denies', async () => {
    const control = await guardDefinition.positiveControl(tempDir());
    const verdict = await guardDefinition.evaluate(control.payload, {
      env: {},
      raw: '',
      guard: 'git-write-gate',
      deadline: Date.now() + 1000,
    });
    expect(verdict.kind).toBe('deny');
  });
  test('the hook command behaves as the bundle, strict policy included', async () => {
    const strict = {
      ...io(fixtures.outside, { TAGOUT_HOOKS_STRICT: '1' }),
      stdin: async () => '{"command":"git push"',
    };
    expect(await runCli(guardDefinition, ['hook'], strict)).toBe(2);
    expect(strict.err()).toMatch(/^git-write-gate: cannot judge/);
  });
});
