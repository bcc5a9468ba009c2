// install --host on the same settings path as Claude Code's install: the lock, symlinks and
// read-only files hold for every host's file. Each block names the failure it guards against.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hookEnv, tempDir, tempTree } from '@kit/test-kit';
import { describe, expect, test } from 'vitest';
import { cli, makeGuard } from './cli-harness.ts';
// @ts-expect-error: a plain .mjs fixture without declarations
import { writeBundle } from './fixtures/example-guard/guard.mjs';

const guard = makeGuard();
const fixtureCli = fileURLToPath(new URL('./fixtures/example-guard/cli.mjs', import.meta.url));
const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8'));

/** Starts the example guard's bin as a process; resolves with its exit code and output. */
function startCli(name: string, bundle: string, argv: string[], cwd: string, home: string) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolvePromise) => {
    const child = spawn(process.execPath, [fixtureCli, name, bundle, ...argv], {
      cwd,
      env: { ...hookEnv(), HOME: home, USERPROFILE: home },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
  });
}

/** The files two hosts share between guards (Copilot gives each guard a file of its own). */
const sharedFiles = {
  codex: { file: '.codex/hooks.json', event: 'PreToolUse' },
  gemini: { file: '.gemini/settings.json', event: 'BeforeTool' },
} as const;

function wiredCommands(settings: Record<string, unknown>, event: string): string[] {
  const hooks = settings.hooks as Record<string, { hooks: { command: string }[] }[]>;
  return (hooks[event] ?? []).flatMap((group) => group.hooks.map((handler) => handler.command));
}

// These hosts run their hooks through bash; the bundles' commands are POSIX shell.
describe.skipIf(process.platform === 'win32')('install --host keeps the settings path’s guarantees', () => {
  describe.for(Object.entries(sharedFiles))('%s', ([host, { file, event }]) => {
    // Without the lock, racing installs into one file lose a handler while each prints "added".
    test('three guards installed at once into one file: none is lost, the user’s key kept', async () => {
      const bundle = writeBundle(tempDir());
      const names = ['guard-a', 'guard-b', 'guard-c'];
      const lost: string[] = [];
      for (let round = 0; round < 8; round += 1) {
        const root = tempTree({ [file]: '{\n  "model": "kept"\n}\n' });
        const home = tempDir();
        const results = await Promise.all(
          names.map((name) => startCli(name, bundle, ['install', '--host', host, '--project'], root, home)),
        );
        for (const result of results) expect(result, result.stderr).toMatchObject({ code: 0, stderr: '' });
        const settings = readJson(join(root, file));
        const wired = wiredCommands(settings, event);
        const missing = names.filter((name) => !wired.some((command) => command.includes(`/${name}.mjs`)));
        if (missing.length > 0) lost.push(`round ${round}: ${missing.join(', ')}`);
        expect(settings.model).toBe('kept');
        expect(existsSync(`${join(root, file)}.lock`)).toBe(false);
      }
      expect(lost).toEqual([]);
    }, 120_000);

    test('a symlinked file is written through to its target, the link kept', async () => {
      const dotfiles = tempTree({ 'settings.json': '{}\n' });
      const root = tempTree({ [`${file.split('/')[0]}/`]: '' });
      symlinkSync(join(dotfiles, 'settings.json'), join(root, file));
      const result = await cli(guard, ['install', '--host', host, '--project'], {
        cwd: root,
        home: tempDir(),
      });
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(lstatSync(join(root, file)).isSymbolicLink()).toBe(true);
      expect(wiredCommands(readJson(join(dotfiles, 'settings.json')), event)).toHaveLength(1);
      await cli(guard, ['uninstall', '--host', host, '--project'], { cwd: root, home: tempDir() });
      expect(lstatSync(join(root, file)).isSymbolicLink()).toBe(true);
      expect(readFileSync(join(dotfiles, 'settings.json'), 'utf8')).toBe('{}\n');
    });

    test('a read-only file (mode 444) is refused, left as it is, and no bundle is placed', async () => {
      const before = '{\n  "model": "kept"\n}\n';
      const root = tempTree({ [file]: before });
      chmodSync(join(root, file), 0o444);
      const result = await cli(guard, ['install', '--host', host, '--project'], {
        cwd: root,
        home: tempDir(),
      });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(
        /is read-only \(mode 444\): make it writable, or install into another scope/,
      );
      expect(readFileSync(join(root, file), 'utf8')).toBe(before);
      expect(existsSync(join(root, file.split('/')[0] as string, 'hooks'))).toBe(false);
    });
  });
});
