import { join } from 'node:path';
import { runCli } from '@kit/gate-approval';
import { type RecordingIO, recordingIO, tempDir } from '@kit/test-kit';
import { describe, expect, test, vi } from 'vitest';
import { guardDefinition } from '../src/guard.ts';
import { makeFixtures } from './fixtures.ts';

// Each test runs the CLI, doctor's positive control included: seconds on a loaded machine.
vi.setConfig({ testTimeout: 120_000 });

// Issue 26 item 4: in an unmanaged repository `explain` said only "trigger":"not-applicable" and
// doctor was green (its positive control runs in a scratch repository of its own): nothing said
// the gate was idle here. The gate supplies the words (idleHere), the shared CLI prints them.
const fixtures = makeFixtures();
const home = tempDir('git-write-gate-idle-home');
const io = (cwd: string, env: Record<string, string> = {}): RecordingIO =>
  recordingIO({ cwd, env: { PATH: process.env.PATH, ...env }, home });
const profileOf = (top: string) =>
  `${join(top, '.claude', 'skills', 'repo-profile', 'SKILL.md')}, or the flat ${join(top, '.claude', 'skills', 'repo-profile.md')}`;

describe('explain says in words when the gate is idle here, and why', () => {
  test.for([
    [
      'an unmanaged repository',
      () => fixtures.plain,
      {},
      `not managed: no repo-profile skill at its work tree's top (${profileOf(fixtures.plain)})`,
    ],
    ['no repository', () => fixtures.outside, {}, 'is in no git work tree'],
    ['GIT_GATE=off in a managed one', () => fixtures.managed, { GIT_GATE: 'off' }, 'GIT_GATE is off'],
  ] as const)('%s: the idle line and the JSON field', async ([, where, env, words]) => {
    const text = io(where(), env);
    await runCli(guardDefinition, ['explain', 'git push origin main'], text);
    expect(text.out()).toMatch(/^verdict: none/m);
    expect(text.out()).toMatch(/^idle: {4}.+$/m);
    expect(text.out()).toContain(words);
    const json = io(where(), env);
    await runCli(guardDefinition, ['explain', 'git push origin main', '--json'], json);
    expect(JSON.parse(json.out()).idle).toContain(words);
  });

  test.for([
    ['a managed repository', {}],
    ['an unmanaged one with GIT_GATE=on', { GIT_GATE: 'on' }],
  ] as const)('%s: no idle line (the control)', async ([what, env]) => {
    const where = what.startsWith('a managed') ? fixtures.managed : fixtures.plain;
    const text = io(where, env);
    await runCli(guardDefinition, ['explain', 'git push origin main'], text);
    expect(text.out()).toMatch(/^verdict: deny/m);
    expect(text.out()).not.toMatch(/^idle:/m);
    const json = io(where, env);
    await runCli(guardDefinition, ['explain', 'git push origin main', '--json'], json);
    expect(JSON.parse(json.out())).not.toHaveProperty('idle');
  });
});

describe('doctor warns that the gate is idle here, and why', () => {
  test('an unmanaged repository: a warn line naming the missing profile', async () => {
    const cli = io(fixtures.plain);
    await runCli(guardDefinition, ['doctor', '--project'], cli);
    expect(cli.out()).toMatch(
      /^warn idle here: this repository is not managed: no repo-profile skill at its work tree's top \(.*\), so every git write here goes through unjudged; `git-write-gate init` makes it managed$/m,
    );
  });
  test('a managed repository: no idle line (the control)', async () => {
    const cli = io(fixtures.managed);
    await runCli(guardDefinition, ['doctor', '--project'], cli);
    expect(cli.out()).toMatch(/^ok {3}switch GIT_GATE/m);
    expect(cli.out()).not.toMatch(/idle here/);
  });
});
