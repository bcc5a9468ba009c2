// Installs as they meet real use: a committed project entry in a teammate's clone, a command run
// from a subfolder, installs racing each other, symlinked, read-only, empty and BOM-marked
// settings files. Each block names the failure it guards against.
import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  collectOutput,
  hookEnv,
  installedHandler,
  runCommand,
  runHookCommand,
  tempDir,
  tempRepo,
  tempTree,
} from '@kit/test-kit';
import { describe, expect, test } from 'vitest';
import { bashPayload } from '../src/index.ts';
import { cli, makeGuard } from './cli-harness.ts';
// @ts-expect-error: a plain .mjs fixture without declarations
import { writeBundle } from './fixtures/example-guard/guard.mjs';

const guard = makeGuard();
const projectHandlerArg = '${CLAUDE_PROJECT_DIR}/.claude/hooks/example-guard.mjs';
const settingsOf = (root: string) => join(root, '.claude', 'settings.json');
const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8').replace(/^\uFEFF/, ''));
const shred = (cwd: string) => bashPayload('shred secrets.txt', { cwd });
const isDeny = (stdout: string) => stdout.includes('"permissionDecision":"deny"');

describe('a project entry runs in a teammate clone, and targets the work tree top', () => {
  test('--project names the bundle below ${CLAUDE_PROJECT_DIR}; the committed tree denies in a clone elsewhere', async () => {
    const checkout = tempRepo({ 'src/app.ts': '' });
    expect((await cli(guard, ['install', '--project'], { cwd: checkout, home: tempDir() })).code).toBe(0);
    // The teammate's clone: the same committed files in another folder, the first checkout gone.
    const clone = join(tempDir('clone'), 'repo');
    cpSync(checkout, clone, { recursive: true });
    rmSync(checkout, { recursive: true, force: true });
    const handler = installedHandler(settingsOf(clone), 'Bash');
    const run = runHookCommand(handler, shred(clone), { env: hookEnv(), projectDir: clone });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(isDeny(run.stdout)).toBe(true);
    expect(handler.args).toEqual([projectHandlerArg]);
    expect((await cli(guard, ['doctor', '--project'], { cwd: clone, home: tempDir() })).code).toBe(0);
  });

  test.for(['--project', '--local'])('%s from a subfolder writes the top of the work tree', async (flag) => {
    const top = tempRepo({ 'packages/app/src/index.ts': '' });
    const below = join(top, 'packages', 'app', 'src');
    const result = await cli(guard, ['install', flag], { cwd: below, home: tempDir() });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toContain(`  project  ${top} (the top of the work tree; start Claude Code there)`);
    const file = join(top, '.claude', flag === '--project' ? 'settings.json' : 'settings.local.json');
    expect(installedHandler(file, 'Bash').args).toEqual([projectHandlerArg]);
    expect(existsSync(join(top, '.claude', 'hooks', 'example-guard.mjs'))).toBe(true);
    expect(existsSync(join(below, '.claude'))).toBe(false);
    // doctor and uninstall find the same files from anywhere in the tree
    expect((await cli(guard, ['doctor', flag], { cwd: below, home: tempDir() })).code).toBe(0);
    expect((await cli(guard, ['uninstall', flag], { cwd: below, home: tempDir() })).code).toBe(0);
    expect(existsSync(join(top, '.claude'))).toBe(false);
  });

  test('a linked worktree (a .git file) is a top of its own', async () => {
    const top = tempTree({ '.git': 'gitdir: /elsewhere/.git/worktrees/x\n', 'lib/a.ts': '' });
    await cli(guard, ['install', '--project'], { cwd: join(top, 'lib'), home: tempDir() });
    expect(existsSync(settingsOf(top))).toBe(true);
  });

  test('outside a work tree the current folder is the project, and --user keeps an absolute path', async () => {
    const folder = tempTree({ 'notes.txt': '' });
    const home = tempDir();
    const result = await cli(guard, ['install', '--project'], { cwd: folder, home });
    expect(result.stdout).not.toContain('  project  ');
    expect(existsSync(settingsOf(folder))).toBe(true);
    await cli(guard, ['install', '--user'], { cwd: folder, home });
    expect(installedHandler(settingsOf(home), 'Bash').args).toEqual([
      join(home, '.claude', 'hooks', 'example-guard.mjs'),
    ]);
  });

  test('an older absolute project entry is upgraded to the placeholder, and doctor asks for that', async () => {
    const root = tempRepo();
    const absolute = join(root, '.claude', 'hooks', 'example-guard.mjs');
    mkdirSync(join(root, '.claude', 'hooks'), { recursive: true });
    writeFileSync(absolute, readFileSync(guard.bundle));
    writeFileSync(
      settingsOf(root),
      JSON.stringify({
        hooks: {
          PreToolUse: [
            { matcher: 'Bash', hooks: [{ type: 'command', command: 'node', args: [absolute], timeout: 5 }] },
          ],
        },
      }),
    );
    const doctor = await cli(guard, ['doctor', '--project'], { cwd: root, home: tempDir() });
    expect(doctor.stdout).toContain(
      `FAIL the entry runs ${absolute}, not ${projectHandlerArg}: run \`example-guard install --project\` to upgrade it`,
    );
    const result = await cli(guard, ['install', '--project'], { cwd: root, home: tempDir() });
    expect(result.stdout).toContain('handler upgraded');
    expect(installedHandler(settingsOf(root), 'Bash').args).toEqual([projectHandlerArg]);
  });
});

const fixtureCli = fileURLToPath(new URL('./fixtures/example-guard/cli.mjs', import.meta.url));

/** Starts the example guard's bin as a process; resolves with its exit code and output. */
async function startCli(name: string, bundle: string, argv: string[], cwd: string, home: string) {
  const env = { ...hookEnv(), HOME: home, USERPROFILE: home };
  const { exitCode, stdout, stderr } = await runCommand(
    process.execPath,
    [fixtureCli, name, bundle, ...argv],
    {
      cwd,
      env,
    },
  );
  return { code: exitCode, stdout, stderr };
}

describe('installs racing each other lose nothing', () => {
  // Without the lock, 11 of 20 rounds of two lost a handler while both printed "handler added".
  const rounds = 20;
  test(`${rounds} rounds of three guards installed at once into one settings file`, async () => {
    const bundle = writeBundle(tempDir());
    const names = ['guard-a', 'guard-b', 'guard-c'];
    const lost: string[] = [];
    for (let round = 0; round < rounds; round += 1) {
      const root = tempTree({ '.claude/settings.json': '{\n  "model": "opus"\n}\n' });
      const home = tempDir();
      const results = await Promise.all(
        names.map((name) => startCli(name, bundle, ['install', '--project'], root, home)),
      );
      for (const result of results) expect(result, result.stderr).toMatchObject({ code: 0, stderr: '' });
      const settings = readJson(settingsOf(root));
      const wired = settings.hooks.PreToolUse.flatMap((group: { hooks: { args: string[] }[] }) =>
        group.hooks.map((handler) => handler.args[0]),
      );
      const missing = names.filter(
        (name) => !wired.includes(`\${CLAUDE_PROJECT_DIR}/.claude/hooks/${name}.mjs`),
      );
      if (missing.length > 0) lost.push(`round ${round}: ${missing.join(', ')}`);
      expect(settings.model).toBe('opus');
      expect(existsSync(`${settingsOf(root)}.lock`)).toBe(false);
    }
    expect(lost).toEqual([]);
  }, 120_000);

  test('install and uninstall of two guards at once: the other guard keeps its handler', async () => {
    const bundle = writeBundle(tempDir());
    for (let round = 0; round < 10; round += 1) {
      const root = tempTree();
      const home = tempDir();
      await startCli('guard-a', bundle, ['install', '--project'], root, home);
      const [uninstalled, installed] = await Promise.all([
        startCli('guard-a', bundle, ['uninstall', '--project'], root, home),
        startCli('guard-b', bundle, ['install', '--project'], root, home),
      ]);
      expect([uninstalled.code, installed.code], uninstalled.stderr + installed.stderr).toEqual([0, 0]);
      const handlers = readJson(settingsOf(root)).hooks.PreToolUse.flatMap(
        (group: { hooks: { args: string[] }[] }) => group.hooks.map((handler) => handler.args[0]),
      );
      expect(handlers).toEqual(['${CLAUDE_PROJECT_DIR}/.claude/hooks/guard-b.mjs']);
    }
  }, 60_000);

  test('a lock left by a crashed install is taken over', async () => {
    const root = tempTree({ '.claude/settings.json': '{}\n' });
    // pid 2^22 + 1 is above Linux's pid_max default, so no process has it.
    writeFileSync(
      `${settingsOf(root)}.lock`,
      JSON.stringify({ pid: 4_194_305, host: (await import('node:os')).hostname(), token: 'crashed' }),
    );
    const result = await cli(guard, ['install', '--project'], { cwd: root, home: tempDir() });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(existsSync(`${settingsOf(root)}.lock`)).toBe(false);
  });
});

describe('settings files as users keep them', () => {
  // Windows gives symlinks to administrators only.
  const symlinks = process.platform !== 'win32';
  test.skipIf(!symlinks)(
    'a dangling settings symlink is written through to its target, the link kept',
    async () => {
      const dotfiles = tempTree({ 'claude/': '' });
      const root = tempTree({ '.claude/': '' });
      const target = join(dotfiles, 'claude', 'settings.json');
      symlinkSync(target, settingsOf(root));
      const result = await cli(guard, ['install', '--project'], { cwd: root, home: tempDir() });
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(lstatSync(settingsOf(root)).isSymbolicLink()).toBe(true);
      expect(readJson(target).hooks.PreToolUse).toHaveLength(1);
      expect(result.stdout).toContain(`  settings ${settingsOf(root)} -> ${target} (handler added)`);
      await cli(guard, ['uninstall', '--project'], { cwd: root, home: tempDir() });
      expect(lstatSync(settingsOf(root)).isSymbolicLink()).toBe(true);
      expect(existsSync(target)).toBe(false);
    },
  );

  test.skipIf(!symlinks)(
    'a relative symlink chain: the backup message names the real backup, which holds the old text',
    async () => {
      const before = '{\n  "model": "opus"\n}\n';
      const root = tempTree({ 'real/settings.json': before, '.claude/': '' });
      symlinkSync('real/settings.json', join(root, 'middle.json'));
      symlinkSync('../middle.json', settingsOf(root));
      const result = await cli(guard, ['install', '--project'], { cwd: root, home: tempDir() });
      const realBackup = join(root, 'real', 'settings.json.bak');
      expect(result.stdout).toContain(`; backup ${realBackup})`);
      expect(readFileSync(realBackup, 'utf8')).toBe(before);
      expect(existsSync(`${settingsOf(root)}.bak`)).toBe(false);
      expect(lstatSync(settingsOf(root)).isSymbolicLink()).toBe(true);
    },
  );

  test('an empty file is {}: install fills it, uninstall gives the empty file back', async () => {
    for (const empty of ['', '\n', '\uFEFF  \n']) {
      const root = tempTree({ '.claude/settings.json': empty });
      const result = await cli(guard, ['install', '--project'], { cwd: root, home: tempDir() });
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(readJson(settingsOf(root)).hooks.PreToolUse[0].hooks[0].args).toEqual([projectHandlerArg]);
      await cli(guard, ['uninstall', '--project'], { cwd: root, home: tempDir() });
      expect(readFileSync(settingsOf(root), 'utf8')).toBe(empty);
    }
  });

  test('a UTF-8 byte-order mark is kept by install and by uninstall', async () => {
    const root = tempTree({ '.claude/settings.json': '\uFEFF{\n  "model": "opus",\n  "x": 1\n}\n' });
    await cli(guard, ['install', '--project'], { cwd: root, home: tempDir() });
    expect(readFileSync(settingsOf(root), 'utf8').startsWith('\uFEFF{\n  "model"')).toBe(true);
    rmSync(`${settingsOf(root)}.bak`); // so uninstall writes the file itself rather than restore it
    await cli(guard, ['uninstall', '--project'], { cwd: root, home: tempDir() });
    expect(readFileSync(settingsOf(root), 'utf8')).toBe('\uFEFF{\n  "model": "opus",\n  "x": 1\n}\n');
  });
});

describe('a read-only settings file is refused with a message, and left as it is', () => {
  const before = '{\n  "model": "opus"\n}\n';
  const refusal =
    /^install: .*settings\.json (is read-only \(mode 444\)|cannot be written \(E(PERM|ACCES).*\)): make it writable, or install into another scope; nothing was changed\n$/;

  test('no write bit (mode 444): refused even as root, who could write it', async () => {
    const root = tempTree({ '.claude/settings.json': before });
    chmodSync(settingsOf(root), 0o444);
    const result = await cli(guard, ['install', '--project'], { cwd: root, home: tempDir() });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(refusal);
    expect(readFileSync(settingsOf(root), 'utf8')).toBe(before);
    expect(existsSync(`${settingsOf(root)}.bak`)).toBe(false);
    expect(existsSync(join(root, '.claude', 'hooks'))).toBe(false);
    const uninstall = await cli(guard, ['uninstall', '--project'], { cwd: root, home: tempDir() });
    expect(uninstall.code).toBe(0); // nothing of ours in it: nothing to write
  });

  const chattrWorks = (() => {
    const probe = tempTree({ f: '' });
    const ok = spawnSync('chattr', ['+i', join(probe, 'f')]).status === 0;
    if (ok) spawnSync('chattr', ['-i', join(probe, 'f')]);
    return ok;
  })();
  test.skipIf(!chattrWorks)('an immutable file (chattr +i), which root cannot write either', async () => {
    const root = tempTree({ '.claude/settings.json': before });
    spawnSync('chattr', ['+i', settingsOf(root)]);
    try {
      const result = await cli(guard, ['install', '--project'], { cwd: root, home: tempDir() });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(refusal);
      expect(result.stderr).toContain('cannot be written (EPERM');
      expect(readFileSync(settingsOf(root), 'utf8')).toBe(before);
      expect(existsSync(`${settingsOf(root)}.bak`)).toBe(false);
    } finally {
      spawnSync('chattr', ['-i', settingsOf(root)]);
    }
  });

  // A real non-root user, where the system itself refuses: only as root, with setpriv, on POSIX.
  const asNobody =
    process.platform !== 'win32' &&
    process.getuid?.() === 0 &&
    spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', 'true']).status === 0;
  test.skipIf(!asNobody)('as another user (setpriv to nobody) on a file it does not own', async () => {
    const bundleDir = tempDir();
    chmodSync(bundleDir, 0o755);
    const bundle = writeBundle(bundleDir);
    const root = tempTree({ '.claude/settings.json': before });
    spawnSync('chown', ['-R', '65534:65534', root]);
    chmodSync(settingsOf(root), 0o644);
    spawnSync('chown', ['0:0', settingsOf(root)]);
    chmodSync(bundle, 0o644);
    const run = spawnSync(
      'setpriv',
      [
        '--reuid=65534',
        '--regid=65534',
        '--clear-groups',
        process.execPath,
        fixtureCli,
        'example-guard',
        bundle,
        'install',
        '--project',
      ],
      { cwd: root, env: { ...hookEnv(), HOME: root }, encoding: 'utf8' },
    );
    expect(run.status, run.stderr).toBe(1);
    expect(run.stderr).toMatch(/cannot be written \(EACCES/);
    expect(readFileSync(settingsOf(root), 'utf8')).toBe(before);
  });
});

describe('the bin as a process', () => {
  test('output into a pipe closed by its reader (`doctor | head -1`) ends quietly', async () => {
    const bundle = writeBundle(tempDir());
    const root = tempTree();
    const home = tempDir();
    await startCli('example-guard', bundle, ['install', '--project'], root, home);
    for (const argv of [['doctor', '--project'], ['--help'], ['install', '--help']]) {
      const child = spawn(process.execPath, [fixtureCli, 'example-guard', bundle, ...argv], {
        cwd: root,
        env: { ...hookEnv(), HOME: home },
      });
      child.stdout.destroy(); // the reader is gone before the first line
      const { exitCode, stderr } = await collectOutput(child);
      const result = { code: exitCode, stderr };
      expect(result, argv.join(' ')).toEqual({ code: 0, stderr: '' });
    }
  });
});
