import { readFileSync } from 'node:fs';
import path from 'node:path';
import { onPath } from '@kit/fail-open';
import { runCli } from '@kit/gate-approval';
import { recordingIO, tempDir, tempTree } from '@kit/test-kit';
import { describe, expect, test } from 'vitest';
import { guardDefinition } from '../src/guard.ts';
import { stubLauncherFolder } from './helpers.ts';

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
            args: ['${CLAUDE_PROJECT_DIR}/.claude/hooks/roseline-gate.cjs'],
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

  // Doctor looks for dnx on its own PATH (the shell Claude Code is started from). `node` stays
  // reachable so the positive control can run through the installed command.
  describe('doctor says what the launcher probe will find', () => {
    const nodeFolder = path.dirname(process.execPath);
    const withPath = (folders: string[], extra: Record<string, string> = {}) => ({
      PATH: folders.join(path.delimiter),
      ...(process.platform === 'win32' ? { PATHEXT: '.COM;.EXE;.BAT;.CMD' } : {}),
      ...extra,
    });
    const doctor = async (env: Record<string, string>) => {
      const dir = tempDir();
      const installed = io(dir, env);
      expect(await runCli(guardDefinition, ['install', '--project'], installed.cli)).toBe(0);
      const run = io(dir, env);
      const code = await runCli(guardDefinition, ['doctor', '--project'], run.cli);
      return { code, out: run.out(), err: run.err() };
    };
    const launcher = () => path.join(stubLauncherFolder(), process.platform === 'win32' ? 'dnx.cmd' : 'dnx');

    test.skipIf(onPath('dnx', withPath([nodeFolder])) !== null)(
      'no dnx, switch unset: a warn line (the gate never denies), and doctor still passes',
      async () => {
        const r = await doctor(withPath([nodeFolder]));
        expect([r.code, r.err]).toEqual([0, '']);
        expect(r.out).toContain(
          '\nwarn dnx is not on PATH: the gate never denies, every Read passes. Install the .NET 10 SDK (it ships dnx), or set ROSELINE_GATE=on where roseline runs by another route (a roseline-mcp global tool, a hand-added server)\n',
        );
        expect(r.out).toMatch(/denies its positive control \(1 warning above\)\n$/);
        expect(r.out).not.toContain('FAIL');
      },
    );

    test('the control: dnx on PATH is an ok line naming it, and no warning', async () => {
      const dnx = launcher();
      const r = await doctor(withPath([nodeFolder, path.dirname(dnx)]));
      expect([r.code, r.err]).toEqual([0, '']);
      expect(r.out).toContain(
        `\nok   dnx on PATH: ${dnx}: the gate denies a C# Read where it finds a project marker\n`,
      );
      expect(r.out).not.toContain('warn');
    });

    test.skipIf(onPath('dnx', withPath([nodeFolder])) !== null).for([
      [
        'ROSELINE_GATE=on',
        { ROSELINE_GATE: 'on' },
        'ok   dnx is not on PATH; ROSELINE_GATE=on enforces the gate without it',
      ],
      [
        'ROSELINE_GATE=off',
        { ROSELINE_GATE: 'off' },
        'ok   dnx is not on PATH, and ROSELINE_GATE=off disables the gate anyway',
      ],
    ] as const)('no dnx, %s: an ok line, no warning', async ([, extra, line]) => {
      const r = await doctor(withPath([nodeFolder], extra));
      expect([r.code, r.err]).toEqual([0, '']);
      expect(r.out).toContain(`\n${line}\n`);
      expect(r.out).not.toContain('warn');
    });

    test('dnx on PATH with ROSELINE_GATE=off: ok, and says the gate is off', async () => {
      const dnx = launcher();
      const r = await doctor(withPath([nodeFolder, path.dirname(dnx)], { ROSELINE_GATE: 'off' }));
      expect(r.code).toBe(0);
      expect(r.out).toContain(`\nok   dnx on PATH: ${dnx}, but ROSELINE_GATE=off disables the gate\n`);
    });

    // A launcher on another drive than the cwd (Windows) has no relative spelling.
    const relativeLauncherFolder = path.relative(process.cwd(), path.dirname(launcher()));
    test.skipIf(onPath('dnx', withPath([nodeFolder])) !== null || path.isAbsolute(relativeLauncherFolder))(
      'dnx reachable only through a relative PATH entry counts as not on PATH',
      async () => {
        const relative = relativeLauncherFolder;
        const r = await doctor(withPath([nodeFolder, relative]));
        expect(r.code).toBe(0);
        expect(r.out).toContain('\nwarn dnx is not on PATH: ');
      },
    );

    test('a broken installation still fails, and the launcher line is printed with it', async () => {
      const dir = tempDir();
      const run = io(dir, withPath([nodeFolder]));
      expect(await runCli(guardDefinition, ['doctor', '--project'], run.cli)).toBe(1);
      expect(run.out()).toMatch(/^FAIL .*settings\.json does not exist/m);
      expect(run.out()).toMatch(/^(warn|ok {2}) dnx /m);
    });
  });

  test('the definition: matcher Read, the switch documented, the bundle in dist', () => {
    expect(guardDefinition.matcher).toBe('Read');
    expect(guardDefinition.switches.map((s) => s.name)).toEqual(['ROSELINE_GATE']);
    expect(path.basename(guardDefinition.bundle)).toBe('hook.cjs');
    expect(path.basename(path.dirname(guardDefinition.bundle))).toBe('dist');
  });
});
