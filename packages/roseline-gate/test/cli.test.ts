import { readFileSync } from 'node:fs';
import path from 'node:path';
import { runCli } from '@kit/gate-approval';
import { recordingIO, tempDir, tempTree } from '@kit/test-kit';
import { describe, expect, test } from 'vitest';
import { guardDefinition } from '../src/guard.ts';

function io(cwd: string, env: Record<string, string | undefined> = {}) {
  const cli = recordingIO({ cwd, env, home: path.join(cwd, 'home') });
  return { cli, out: cli.out, err: cli.err };
}

describe('the shared CLI over this guard', () => {
  test('--version is the package version', async () => {
    const { cli, out } = io(tempDir());
    expect(await runCli(guardDefinition, ['--version'], cli)).toBe(0);
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    expect(out().trim()).toBe(manifest.version);
  });

  test('install --project writes one Read handler with timeout 5 and copies the bundle', async () => {
    const dir = tempDir();
    const { cli } = io(dir);
    expect(await runCli(guardDefinition, ['install', '--project'], cli)).toBe(0);
    const settings = JSON.parse(readFileSync(path.join(dir, '.claude', 'settings.json'), 'utf8'));
    expect(settings.hooks.PreToolUse).toEqual([
      {
        matcher: 'Read',
        hooks: [
          {
            type: 'command',
            command: 'node',
            args: [path.join(dir, '.claude', 'hooks', 'roseline-gate.cjs')],
            timeout: 5,
          },
        ],
      },
    ]);
    expect(readFileSync(path.join(dir, '.claude', 'hooks', 'roseline-gate.cjs'), 'utf8')).toBe(
      readFileSync(guardDefinition.bundle, 'utf8'),
    );
  });

  test('explain a .cs under a .csproj with ROSELINE_GATE=on names the deny; a .md does not', async () => {
    const root = tempTree({ 'App.csproj': '', 'Program.cs': '', 'README.md': '' });
    const temp = tempDir('rg-tmp');
    const env = { ROSELINE_GATE: 'on', PATH: '', TMPDIR: temp, TEMP: temp, TMP: temp };
    const cs = io(root, env);
    await runCli(guardDefinition, ['explain', 'Program.cs', '--cwd', root], cs.cli);
    expect(cs.out()).toContain('roseline-gate: ');
    const md = io(root, env);
    await runCli(guardDefinition, ['explain', 'README.md', '--cwd', root], md.cli);
    expect(md.out()).not.toContain('roseline-gate: ');
  });

  test('the positive control denies through evaluate', async () => {
    const control = await guardDefinition.positiveControl(tempDir());
    const verdict = await guardDefinition.evaluate(control.payload, {
      env: { ...control.env, PATH: '' },
      raw: '',
      guard: 'roseline-gate',
      deadline: Date.now() + 3000,
    });
    expect(verdict.kind).toBe('deny');
  });

  test('the definition: matcher Read, the switch documented, the bundle in dist', () => {
    expect(guardDefinition.matcher).toBe('Read');
    expect(guardDefinition.switches.map((s) => s.name)).toEqual(['ROSELINE_GATE']);
    expect(path.basename(guardDefinition.bundle)).toBe('hook.cjs');
    expect(path.basename(path.dirname(guardDefinition.bundle))).toBe('dist');
  });
});
