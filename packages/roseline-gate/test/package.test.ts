import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  installedHandler,
  installPacked,
  type PackedInstall,
  runHookCommand,
  tempDir,
  tempTree,
} from '@kit/test-kit';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readCall } from './helpers.ts';

// The tarball as a user gets it: packed by pnpm (workspace:^ becomes a real range), installed by
// npm into a clean folder with the primitives' own tarballs (they are not on a registry here).
const packageDir = fileURLToPath(new URL('..', import.meta.url));
const onWindows = process.platform === 'win32';

// Runs a command of the test's own and returns its stdout; throws with the output when it fails.
function run(command: string, args: string[], cwd: string): string {
  const r = spawnSync(command, args, { cwd, encoding: 'utf8', shell: onWindows, timeout: 120_000 });
  if (r.status !== 0)
    throw new Error(`${command} ${args.join(' ')} failed (${r.status}): ${r.stderr}${r.stdout}`);
  return r.stdout;
}

let packed: PackedInstall;
let installDir = '';
let installed = '';
beforeAll(async () => {
  packed = await installPacked(['fail-open', 'gate-approval', 'roseline-gate']);
  installDir = packed.app;
  installed = packed.installed('@kit/roseline-gate');
}, 180_000);
afterAll(() => packed?.remove());

describe('the packed tarball', () => {
  test('holds dist (cli, hook bundle, both formats), the README and nothing of src or test', () => {
    const files = readdirSync(installed, { recursive: true })
      .map(String)
      .map((f) => f.replaceAll('\\', '/'))
      .sort();
    for (const file of [
      'README.md',
      'package.json',
      'dist/cli.js',
      'dist/hook.cjs',
      'dist/index.js',
      'dist/index.cjs',
      'dist/index.d.ts',
      'dist/index.d.cts',
    ]) {
      expect(files).toContain(file);
    }
    expect(files.filter((f) => f.startsWith('src/') || f.startsWith('test/'))).toEqual([]);
    const manifest = JSON.parse(readFileSync(path.join(installed, 'package.json'), 'utf8'));
    expect(JSON.stringify(manifest.dependencies)).not.toContain('workspace:');
  });

  test.skipIf(onWindows)('the bin is executable and starts with a shebang', () => {
    const cli = path.join(installed, 'dist', 'cli.js');
    expect(statSync(cli).mode & 0o111).not.toBe(0);
    expect(readFileSync(cli, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
  });

  test('the installed bin answers --version', () => {
    const bin = path.join(
      installDir,
      'node_modules',
      '.bin',
      onWindows ? 'roseline-gate.cmd' : 'roseline-gate',
    );
    const manifest = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8'));
    expect(run(bin, ['--version'], installDir).trim()).toBe(manifest.version);
  });

  test('install --project from the tarball wires a hook that denies, and the library imports both ways', () => {
    const project = tempTree({ 'App.csproj': '', 'Program.cs': '' });
    run(process.execPath, [path.join(installed, 'dist', 'cli.js'), 'install', '--project'], project);
    const settingsFile = path.join(project, '.claude', 'settings.json');
    expect(JSON.parse(readFileSync(settingsFile, 'utf8')).hooks.PreToolUse[0].matcher).toBe('Read');
    const handler = installedHandler(settingsFile, 'Read');
    expect(handler.timeout).toBe(5);
    const temp = tempDir('rg-tmp');
    // PATH is empty, so `node` is this one: the handler's command as the host would resolve it.
    const node = { ...handler, command: handler.command === 'node' ? process.execPath : handler.command };
    const r = runHookCommand(node, readCall(path.join(project, 'Program.cs'), project), {
      env: { PATH: '', ROSELINE_GATE: 'on', TMPDIR: temp, TEMP: temp, TMP: temp },
      projectDir: project,
    });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    const esm = run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "import { evaluate, isCSharpSource } from '@kit/roseline-gate'; console.log(typeof evaluate, isCSharpSource('a\\\\b\\\\C.CS'))",
      ],
      installDir,
    );
    const cjs = run(
      process.execPath,
      [
        '-e',
        "const { evaluate, isCSharpSource } = require('@kit/roseline-gate'); console.log(typeof evaluate, isCSharpSource('x.csproj'))",
      ],
      installDir,
    );
    expect([esm.trim(), cjs.trim()]).toEqual(['function true', 'function false']);
  });
});
