import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir, tempTree } from '@kit/test-kit';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readCall } from './helpers.ts';

// The tarball as a user gets it: packed by pnpm (workspace:^ becomes a real range), installed by
// npm into a clean folder with the primitives' own tarballs (they are not on a registry here).
const packageDir = fileURLToPath(new URL('..', import.meta.url));
const packagesDir = path.dirname(packageDir);
const onWindows = process.platform === 'win32';

function run(command: string, args: string[], cwd: string, input?: string) {
  const viaPnpm = command === 'pnpm' && process.env.npm_execpath?.includes('pnpm');
  const [file, argv] = viaPnpm
    ? [process.execPath, [process.env.npm_execpath as string, ...args]]
    : [command, args];
  const r = spawnSync(file, argv, {
    cwd,
    encoding: 'utf8',
    shell: onWindows && !viaPnpm,
    input,
    timeout: 120_000,
  });
  if (r.status !== 0)
    throw new Error(`${command} ${args.join(' ')} failed (${r.status}): ${r.stderr}${r.stdout}`);
  return r.stdout;
}

let installDir = '';
let installed = '';
const scratch: string[] = [];
const scratchFolder = (prefix: string): string => {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  scratch.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

beforeAll(() => {
  const packs = scratchFolder('rg-pack-');
  for (const name of ['fail-open', 'gate-approval', 'roseline-gate']) {
    run('pnpm', ['pack', '--pack-destination', packs], path.join(packagesDir, name));
  }
  installDir = scratchFolder('rg-install-');
  writeFileSync(path.join(installDir, 'package.json'), '{ "name": "pack-check", "private": true }\n');
  const tarballs = readdirSync(packs)
    .filter((f) => f.endsWith('.tgz'))
    .map((f) => path.join(packs, f));
  run(
    'npm',
    ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', ...tarballs],
    installDir,
  );
  installed = path.join(installDir, 'node_modules', '@kit', 'roseline-gate');
}, 180_000);

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
    const settings = JSON.parse(readFileSync(path.join(project, '.claude', 'settings.json'), 'utf8'));
    const handler = settings.hooks.PreToolUse[0].hooks[0];
    expect(settings.hooks.PreToolUse[0].matcher).toBe('Read');
    expect(handler.timeout).toBe(5);
    const temp = tempDir('rg-tmp');
    const r = spawnSync(handler.command === 'node' ? process.execPath : handler.command, handler.args, {
      input: JSON.stringify(readCall(path.join(project, 'Program.cs'), project)),
      env: {
        PATH: '',
        ROSELINE_GATE: 'on',
        TMPDIR: temp,
        TEMP: temp,
        TMP: temp,
        ...(onWindows ? { SystemRoot: process.env.SystemRoot ?? '' } : {}),
      },
      encoding: 'utf8',
    });
    expect(r.status).toBe(0);
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
