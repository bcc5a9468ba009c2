import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { bashPayload } from '@kit/gate-approval';
import { hookEnv, installPacked, type PackedInstall, runHookFile, tempTree } from '@kit/test-kit';
import { afterAll, beforeAll, expect, test } from 'vitest';

// The gate and the primitives it depends on: packed together, as a registry would serve them.
let packed: PackedInstall;
let installed: string;
beforeAll(async () => {
  packed = await installPacked(['git-write-gate', 'fail-open', 'gate-approval', 'shell-segments']);
  installed = packed.app;
}, 180_000);
afterAll(() => packed?.remove());

test('the packed bin runs and prints the version', () => {
  const bin = join(
    installed,
    'node_modules',
    '.bin',
    process.platform === 'win32' ? 'git-write-gate.cmd' : 'git-write-gate',
  );
  const result = spawnSync(bin, ['--version'], { encoding: 'utf8', shell: process.platform === 'win32' });
  expect(result.status).toBe(0);
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  expect(result.stdout.trim()).toBe(manifest.version);
});

test.skipIf(process.platform === 'win32')('the bin ships executable, with a node shebang', () => {
  const cli = join(installed, 'node_modules', '@kit', 'git-write-gate', 'dist', 'cli.js');
  expect(statSync(cli).mode & 0o111).not.toBe(0);
  expect(execFileSync('head', ['-c', '19', cli], { encoding: 'utf8' })).toBe('#!/usr/bin/env node');
});

test('the packed hook bundle denies a write in a managed repository, standing alone', () => {
  const repository = tempTree({
    '.git/HEAD': 'ref: refs/heads/main\n',
    '.git/objects/': '',
    '.git/refs/': '',
    '.claude/skills/repo-profile.md': '---\nname: repo-profile\n---\n',
  });
  const payload = bashPayload('git push', { cwd: repository, sessionId: 's' });
  const hook = join(packed.installed('@kit/git-write-gate'), 'dist', 'hook.cjs');
  const result = runHookFile(hook, payload, { env: hookEnv(), cwd: packed.app });
  expect(result.exitCode).toBe(0);
  expect(result.stdout).toContain('"permissionDecision":"deny"');
});

test('the tarball holds dist and the manifest, not the sources or tests', () => {
  const tarball = packed.packages.find((p) => p.name === '@kit/git-write-gate')?.tarball ?? '';
  const listing = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' });
  expect(listing).toContain('package/dist/hook.cjs');
  expect(listing).toContain('package/dist/cli.js');
  expect(listing).toContain('package/README.md');
  expect(listing).not.toContain('package/src/');
  expect(listing).not.toContain('package/test/');
});
