import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bashPayload } from '@kit/gate-approval';
import { hookEnv, installPacked, type PackedInstall, runHookFile, tempDir } from '@kit/test-kit';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import packageJson from '../package.json' with { type: 'json' };

// The tarball users get from `npx @kit/exit-status-guard`: packed with pnpm (workspace:^ becomes a
// version range), installed with npm into an empty folder, next to the packed primitives and
// mvdan-sh (packed from the workspace, so the test needs no registry).
let packed: PackedInstall;
let installed: string;
beforeAll(async () => {
  packed = await installPacked(['exit-status-guard', 'shell-segments', 'fail-open', 'gate-approval']);
  installed = packed.installed('@kit/exit-status-guard');
}, 180_000);
afterAll(() => packed?.remove());

describe('the packed tarball', () => {
  test('installs the bin, and it runs --version', () => {
    const bin = join(packed.app, 'node_modules', '.bin', 'exit-status-guard');
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
    const elsewhere = tempDir('esg-copy');
    const copy = join(elsewhere, 'copied-hook.cjs');
    writeFileSync(copy, readFileSync(join(installed, 'dist', 'hook.cjs')));
    const payload = bashPayload('make check 2>&1 | tail -30; echo "EXIT=$?"', {
      cwd: elsewhere,
      sessionId: 's',
    });
    const run = runHookFile(copy, payload, { env: hookEnv({ CLAUDE_PROJECT_DIR: elsewhere }) });
    expect(run.exitCode).toBe(0);
    expect(JSON.parse(run.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
  });
  test('the library loads through require and import', () => {
    const app = packed.app;
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
  test('only dist, the plugin, the registry, the README and package.json ship', () => {
    const top = readdirSync(installed).sort();
    expect(
      top.filter(
        (name) =>
          ![
            'dist',
            '.claude-plugin',
            'hooks',
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
