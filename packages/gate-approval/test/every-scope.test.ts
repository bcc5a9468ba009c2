import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempTree } from '@kit/test-kit';
import { describe, expect, test, vi } from 'vitest';
import { cli, makeGuard } from './cli-harness.ts';

// Each test runs the CLI, doctor's positive control included: seconds on a loaded machine.
vi.setConfig({ testTimeout: 120_000 });

// Issue 26 item 4: doctor and uninstall given no scope looked only at the user scope: after
// `install --project`, doctor failed and advised `install --user` (which would wire the guard
// twice), and uninstall said "not installed" and exited 0. A backup survived a full uninstall.
const guard = makeGuard();
const projectSettings = (root: string) => join(root, '.claude', 'settings.json');
const leftIn = (root: string) =>
  (readdirSync(root, { recursive: true }) as string[]).filter((entry) => !entry.startsWith('src')).sort();

/** A project and a home folder, the guard installed in each scope named (in that order). */
async function installedIn(...scopes: string[]): Promise<{ root: string; home: string }> {
  const root = tempTree({ 'src/app.ts': '' });
  const home = tempTree();
  for (const scope of scopes) await cli(guard, ['install', `--${scope}`], { cwd: root, home });
  return { root, home };
}

describe('doctor with no scope looks at every scope', () => {
  test('after install --project: checked there, green, and no advice to install --user', async () => {
    const { root, home } = await installedIn('project');
    const result = await cli(guard, ['doctor'], { cwd: root, home });
    expect(result.stdout).toMatch(
      /^ok {3}no scope given: looked in user \(.*\), project \(.*\), local \(.*\); installed in project scope$/m,
    );
    expect(result.stdout).toContain(`ok   settings entry in ${projectSettings(root)}`);
    expect(result.stdout).not.toContain('install --user');
    // Not the exit code: on a loaded machine the positive control may outlive the hook's 5 s.
    expect(result.stdout).not.toMatch(/^FAIL .*settings/m);
  });

  test('installed nowhere: says where it looked, and fails naming the install', async () => {
    const root = tempTree({ 'src/app.ts': '' });
    const result = await cli(guard, ['doctor'], { cwd: root, home: tempTree() });
    expect(result.stdout).toMatch(/^ok {3}no scope given: looked in user .*; no handler in any$/m);
    expect(result.stdout).toMatch(
      /^FAIL .*settings\.json does not exist: run `example-guard install --user`$/m,
    );
    expect(result.code).toBe(1);
  });

  test('installed in two scopes: a warning that the host runs it twice, and both checked', async () => {
    const { root, home } = await installedIn('user', 'project');
    const result = await cli(guard, ['doctor'], { cwd: root, home });
    expect(result.stdout).toMatch(
      /^warn example-guard is installed in user and project scope: the host runs it once for each/m,
    );
    expect(result.stdout.match(/^ok {3}settings entry in /gm)).toHaveLength(2);
  });

  test('a scope given is the only one looked at (the control)', async () => {
    const { root, home } = await installedIn('project');
    const result = await cli(guard, ['doctor', '--user'], { cwd: root, home });
    expect(result.stdout).not.toContain('no scope given');
    expect(result.stdout).toMatch(/^FAIL .* does not exist: run `example-guard install --user`$/m);
    expect(result.code).toBe(1);
  });

  test('another host: after install --host gemini --project, doctor --host gemini checks the project', async () => {
    const { root, home } = await installedIn();
    await cli(guard, ['install', '--host', 'gemini', '--project'], { cwd: root, home });
    const result = await cli(guard, ['doctor', '--host', 'gemini'], { cwd: root, home });
    expect(result.stdout).toMatch(
      /^ok {3}no scope given: looked in user \(.*\), project \(.*\); installed in project scope$/m,
    );
    expect(result.stdout).not.toContain('--user');
    expect(result.stdout).toMatch(/^ok {3}Gemini CLI entry in .*\.gemini\/settings\.json: /m);
  });
});

describe('uninstall with no scope removes what it finds, or says where it looked', () => {
  test('after install --project: removed from the project, nothing of the guard left', async () => {
    const { root, home } = await installedIn('project');
    const result = await cli(guard, ['uninstall'], { cwd: root, home });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(/^uninstalled example-guard \(project scope\)$/m);
    expect(leftIn(root)).toEqual([]);
  });

  test('installed in user and project scope: removed from both', async () => {
    const { root, home } = await installedIn('user', 'project');
    const result = await cli(guard, ['uninstall'], { cwd: root, home });
    expect(result.stdout.match(/^uninstalled example-guard \((user|project) scope\)$/gm)).toEqual([
      'uninstalled example-guard (user scope)',
      'uninstalled example-guard (project scope)',
    ]);
    expect((await cli(guard, ['doctor'], { cwd: root, home })).stdout).toContain('no handler in any');
  });

  test('installed nowhere: says precisely where it looked, exit 0', async () => {
    const { root, home } = await installedIn();
    const result = await cli(guard, ['uninstall'], { cwd: root, home });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toBe(
      `example-guard is not installed in any scope: looked in user (${join(home, '.claude', 'settings.json')}), project (${projectSettings(root)}), local (${join(root, '.claude', 'settings.local.json')}); nothing changed\n`,
    );
  });
});

describe('no backup is left in the project after an uninstall', () => {
  test.for([
    ['settings of its own before', { '.claude/settings.json': '{\n  "model": "opus"\n}\n' }],
    ['no settings before', {}],
  ] as const)('%s: the project is as it was, no .bak', async ([, files]) => {
    const root = tempTree({ 'src/app.ts': '', ...files });
    const home = tempTree();
    const before = leftIn(root);
    await cli(guard, ['install', '--project'], { cwd: root, home });
    const result = await cli(guard, ['uninstall', '--project'], { cwd: root, home });
    expect(result.code).toBe(0);
    expect(leftIn(root)).toEqual(before);
    const text = (files as Record<string, string>)['.claude/settings.json'];
    if (text !== undefined) expect(readFileSync(projectSettings(root), 'utf8')).toBe(text);
    else expect(existsSync(join(root, '.claude'))).toBe(false);
  });

  test('the settings file edited since the install: the handler removed, the edit kept, no .bak', async () => {
    const root = tempTree({ 'src/app.ts': '', '.claude/settings.json': '{"model":"opus"}\n' });
    const home = tempTree();
    await cli(guard, ['install', '--project'], { cwd: root, home });
    const installed = JSON.parse(readFileSync(projectSettings(root), 'utf8'));
    const { writeFileSync } = await import('node:fs');
    writeFileSync(projectSettings(root), JSON.stringify({ ...installed, theme: 'dark' }));
    await cli(guard, ['uninstall', '--project'], { cwd: root, home });
    expect(JSON.parse(readFileSync(projectSettings(root), 'utf8'))).toEqual({ model: 'opus', theme: 'dark' });
    expect(leftIn(root)).toEqual(['.claude', '.claude/settings.json']);
  });
});
