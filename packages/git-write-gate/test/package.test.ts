import { execFileSync, spawnSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';

const packagesDir = fileURLToPath(new URL('../..', import.meta.url));
// The gate and the primitives it depends on: packed together, as a registry would serve them.
const packed = ['git-write-gate', 'fail-open', 'gate-approval', 'shell-segments'];
let scratch: string;
let installed: string;

beforeAll(() => {
  scratch = realpathSync(mkdtempSync(join(tmpdir(), 'git-write-gate-pack-')));
  const tarballs = join(scratch, 'tarballs');
  for (const name of packed) {
    execFileSync('pnpm', ['pack', '--pack-destination', tarballs], {
      cwd: join(packagesDir, name),
      stdio: 'ignore',
      shell: process.platform === 'win32',
    });
  }
  installed = join(scratch, 'app');
  mkdirp(installed);
  execFileSync('npm', ['init', '-y'], {
    cwd: installed,
    stdio: 'ignore',
    shell: process.platform === 'win32',
  });
  const files = readdirSync(tarballs).map((file) => join(tarballs, file));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...files], {
    cwd: installed,
    stdio: 'ignore',
    shell: process.platform === 'win32',
  });
}, 180_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function mkdirp(dir: string): void {
  mkdirSync(dir, { recursive: true });
}

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
  const repository = join(scratch, 'repo');
  mkdirp(join(repository, '.git'));
  mkdirp(join(repository, '.claude', 'skills'));
  writeFileSync(join(repository, '.claude', 'skills', 'repo-profile.md'), '---\nname: repo-profile\n---\n');
  const payload = {
    session_id: 's',
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command: 'git push' },
    cwd: repository,
  };
  const hook = join(installed, 'node_modules', '@kit', 'git-write-gate', 'dist', 'hook.cjs');
  const result = spawnSync(process.execPath, [hook], {
    input: JSON.stringify(payload),
    encoding: 'utf8',
    cwd: scratch,
  });
  expect(result.status).toBe(0);
  expect(result.stdout).toContain('"permissionDecision":"deny"');
});

test('the tarball holds dist and the manifest, not the sources or tests', () => {
  const tarball =
    readdirSync(join(scratch, 'tarballs')).find((file) => file.startsWith('kit-git-write-gate-')) ?? '';
  const listing = execFileSync('tar', ['-tzf', join(scratch, 'tarballs', tarball)], { encoding: 'utf8' });
  expect(listing).toContain('package/dist/hook.cjs');
  expect(listing).toContain('package/dist/cli.js');
  expect(listing).toContain('package/README.md');
  expect(listing).not.toContain('package/src/');
  expect(listing).not.toContain('package/test/');
});
