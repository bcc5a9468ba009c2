import { execFileSync, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import packageJson from '../package.json' with { type: 'json' };

// The tarball users get from `npx @kit/exit-status-guard`: packed with pnpm (workspace:^ becomes a
// version range), installed with npm into an empty folder, next to the packed primitives and
// mvdan-sh (packed from the workspace, so the test needs no registry).
const packageDir = fileURLToPath(new URL('..', import.meta.url));
const packagesDir = dirname(packageDir);
const work = mkdtempSync(join(tmpdir(), 'esg-pack-'));
const installed = join(work, 'app', 'node_modules', '@kit', 'exit-status-guard');

function pack(dir: string, tool: 'pnpm' | 'npm'): string {
  const before = new Set(readdirSync(work));
  execFileSync(tool, ['pack', '--pack-destination', work], {
    cwd: dir,
    stdio: 'pipe',
    shell: process.platform === 'win32',
  });
  const made = readdirSync(work).find((name) => name.endsWith('.tgz') && !before.has(name));
  if (!made) throw new Error(`${tool} pack made no tarball in ${dir}`);
  return join(work, made);
}

beforeAll(() => {
  const mvdan = dirname(
    createRequire(join(packagesDir, 'shell-segments', 'package.json')).resolve('mvdan-sh/package.json'),
  );
  const tarballs = [
    pack(packageDir, 'pnpm'),
    ...['shell-segments', 'fail-open', 'gate-approval'].map((name) => pack(join(packagesDir, name), 'pnpm')),
    pack(realpathSync(mvdan), 'npm'),
  ];
  const app = join(work, 'app');
  execFileSync('node', ['-e', `require('fs').mkdirSync(${JSON.stringify(app)})`]);
  writeFileSync(join(app, 'package.json'), '{"name":"app","private":true}');
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--offline', ...tarballs], {
    cwd: app,
    stdio: 'pipe',
    shell: process.platform === 'win32',
  });
}, 180_000);

describe('the packed tarball', () => {
  test('installs the bin, and it runs --version', () => {
    const bin = join(work, 'app', 'node_modules', '.bin', 'exit-status-guard');
    const run = spawnSync(bin, ['--version'], { encoding: 'utf8', shell: process.platform === 'win32' });
    expect(run.stdout.trim()).toBe(packageJson.version);
  });
  test.skipIf(process.platform === 'win32')('the bin is executable and starts with a node shebang', () => {
    const cli = join(installed, 'dist', 'cli.js');
    expect(statSync(cli).mode & 0o111).not.toBe(0);
    expect(readFileSync(cli, 'utf8').startsWith('#!/usr/bin/env node')).toBe(true);
  });
  test('the registry ships beside dist', () => {
    const registry = JSON.parse(readFileSync(join(installed, 'exit-status-guard.json'), 'utf8'));
    expect(registry.gates.length).toBeGreaterThan(0);
  });
  test('the hook bundle ships and denies the positive control from a copy elsewhere (registry inlined)', () => {
    const copy = join(work, 'copied-hook.cjs');
    writeFileSync(copy, readFileSync(join(installed, 'dist', 'hook.cjs')));
    const payload = {
      session_id: 's',
      cwd: work,
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'make check 2>&1 | tail -30; echo "EXIT=$?"' },
    };
    const run = spawnSync(process.execPath, [copy], {
      input: JSON.stringify(payload),
      encoding: 'utf8',
      env: { ...process.env, CLAUDE_PROJECT_DIR: work },
    });
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
  });
  test('the library loads through require and import', () => {
    const app = join(work, 'app');
    const viaRequire = spawnSync(
      process.execPath,
      ['-e', "console.log(typeof require('@kit/exit-status-guard').evaluate)"],
      { cwd: app, encoding: 'utf8' },
    );
    const viaImport = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "import { evaluate } from '@kit/exit-status-guard'; console.log(typeof evaluate)",
      ],
      { cwd: app, encoding: 'utf8' },
    );
    expect([viaRequire.stdout.trim(), viaImport.stdout.trim()]).toEqual(['function', 'function']);
  });
  test('only dist, the registry, the README and package.json ship', () => {
    const top = readdirSync(installed).sort();
    expect(
      top.filter(
        (name) =>
          ![
            'dist',
            'exit-status-guard.json',
            'package.json',
            'README.md',
            'LICENSE',
            'CHANGELOG.md',
          ].includes(name),
      ),
    ).toEqual([]);
    expect(existsSync(join(installed, 'src'))).toBe(false);
  });
});
