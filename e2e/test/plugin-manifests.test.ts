import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, test } from 'vitest';
import { type CommandResult, repoRoot, runCommand } from '@kit/test-kit';
import { guardCases } from '../src/guard-cases.ts';
import { requireKit } from '../src/kit.ts';
import { GUARDS } from '../src/pack.ts';
import { readKitMarketplace, runClaudeCommand } from '../src/plugin.ts';
import { removeScratch, scratchDir } from '../src/scratch.ts';

const source = inject('kitSource');
afterAll(removeScratch);

// The plugin files as written and as packed, without a session: each guard's plugin manifest and
// hooks file, the marketplace that installs them from npm, the version they all share, and what
// the real CLI's validator says of them.

const readJson = async (file: string): Promise<Record<string, unknown>> =>
  JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
const packageDir = (guard: string) => join(repoRoot, 'packages', guard);
const shown = (result: CommandResult) => `exit ${result.exitCode}\n${result.stdout}\n${result.stderr}`;

describe.for(guardCases)('$guard ships its plugin', (guardCase) => {
  const dir = packageDir(guardCase.guard);
  // The tool of the guard's deny call is the tool its hook matches.
  const matcher = guardCase.call(dir).name;

  test('plugin.json: its name, its package version and description', async () => {
    const manifest = await readJson(join(dir, 'package.json'));
    expect(await readJson(join(dir, '.claude-plugin', 'plugin.json'))).toMatchObject({
      name: guardCase.guard,
      version: manifest.version,
      description: manifest.description,
    });
  });

  test(`hooks/hooks.json: one PreToolUse handler on ${matcher}, exec form, the packaged bundle, 5 s`, async () => {
    const hooks = (await readJson(join(dir, 'hooks', 'hooks.json'))).hooks;
    expect(hooks).toEqual({
      PreToolUse: [
        {
          matcher,
          hooks: [
            { type: 'command', command: 'node', args: ['${CLAUDE_PLUGIN_ROOT}/dist/hook.cjs'], timeout: 5 },
          ],
        },
      ],
    });
  });

  test('the packed tarball holds the plugin manifest, the hooks file and the bundle they name', async () => {
    const packed = requireKit(source).packages.find((p) => p.name === `@kit/${guardCase.guard}`);
    const listing = await runCommand('tar', ['-tzf', String(packed?.tarball)], { cwd: repoRoot });
    expect(listing.stdout.split('\n'), shown(listing)).toEqual(
      expect.arrayContaining([
        'package/.claude-plugin/plugin.json',
        'package/hooks/hooks.json',
        'package/dist/hook.cjs',
      ]),
    );
  });

  test('claude plugin validate --strict passes on the package folder', async () => {
    const home = await scratchDir(`${guardCase.guard}-validate`);
    const result = await runClaudeCommand(['plugin', 'validate', '--strict', dir], home);
    expect(result.exitCode, shown(result)).toBe(0);
    expect(result.stdout).toContain(
      `PreToolUse ${matcher} command node ["\${CLAUDE_PLUGIN_ROOT}/dist/hook.cjs"]`,
    );
  });
});

describe('the marketplace (.claude-plugin/marketplace.json)', () => {
  test('lists each guard, installed from its npm package at the package version', async () => {
    const marketplace = await readKitMarketplace();
    for (const guard of GUARDS) {
      const { version } = await readJson(join(packageDir(guard), 'package.json'));
      const entry = marketplace.plugins.find((plugin) => plugin.name === guard);
      expect(entry?.source, guard).toEqual({ source: 'npm', package: `@kit/${guard}`, version });
    }
  });

  test("git-write-gate-strict: git-write-gate's package, with a handler that blocks on failure and runs the strict launcher", async () => {
    const marketplace = await readKitMarketplace();
    const { version } = await readJson(join(packageDir('git-write-gate'), 'package.json'));
    expect(marketplace.plugins.find((plugin) => plugin.name === 'git-write-gate-strict')).toMatchObject({
      source: { source: 'npm', package: '@kit/git-write-gate', version },
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              {
                type: 'command',
                command: 'node',
                args: ['${CLAUDE_PLUGIN_ROOT}/hooks/strict.cjs'],
                timeout: 5,
                onFailure: 'block',
              },
            ],
          },
        ],
      },
    });
    const launcher = await readFile(join(packageDir('git-write-gate'), 'hooks', 'strict.cjs'), 'utf8');
    expect(launcher).toContain("process.env.TAGOUT_HOOKS_STRICT = '1';");
    expect(launcher).toContain("require('../dist/hook.cjs');");
  });

  test('claude plugin validate --strict passes on the checkout', async () => {
    const result = await runClaudeCommand(
      ['plugin', 'validate', '--strict', repoRoot],
      await scratchDir('marketplace-validate'),
    );
    expect(result.exitCode, shown(result)).toBe(0);
  });
});

describe('scripts/plugin-versions.mjs keeps the copies of each version in step', () => {
  const script = join(repoRoot, 'scripts', 'plugin-versions.mjs');
  const run = (args: string[]) => runCommand(process.execPath, [script, ...args], { cwd: repoRoot });

  test('the checkout has no drift', async () => {
    const result = await run(['--check']);
    expect(result.exitCode, shown(result)).toBe(0);
  });

  test('after a version bump (what `changeset version` does) --check fails and names each copy; the sync fixes them', async () => {
    // A copy of the files the script reads, with git-write-gate bumped in package.json only.
    const root = await scratchDir('plugin-versions');
    await cp(join(repoRoot, '.claude-plugin'), join(root, '.claude-plugin'), { recursive: true });
    for (const guard of GUARDS) {
      await mkdir(join(root, 'packages', guard), { recursive: true });
      await cp(join(packageDir(guard), 'package.json'), join(root, 'packages', guard, 'package.json'));
      await cp(join(packageDir(guard), '.claude-plugin'), join(root, 'packages', guard, '.claude-plugin'), {
        recursive: true,
      });
    }
    const bumped = join(root, 'packages', 'git-write-gate', 'package.json');
    const manifest = await readJson(bumped);
    await writeFile(bumped, `${JSON.stringify({ ...manifest, version: '9.9.9' }, null, 2)}\n`);

    const drift = await run(['--check', '--root', root]);
    expect(drift.exitCode, shown(drift)).toBe(1);
    expect(drift.stderr.trim().split('\n').slice(0, -1)).toEqual([
      `packages/git-write-gate/.claude-plugin/plugin.json: version is ${manifest.version}, its package is at 9.9.9`,
      `.claude-plugin/marketplace.json: plugins["git-write-gate"].source.version is ${manifest.version}, its package is at 9.9.9`,
      `.claude-plugin/marketplace.json: plugins["git-write-gate-strict"].source.version is ${manifest.version}, its package is at 9.9.9`,
    ]);

    const sync = await run(['--root', root]);
    expect(sync.exitCode, shown(sync)).toBe(0);
    expect((await run(['--check', '--root', root])).exitCode).toBe(0);
    expect(
      await readJson(join(root, 'packages', 'git-write-gate', '.claude-plugin', 'plugin.json')),
    ).toMatchObject({
      version: '9.9.9',
    });
    const marketplace = await readJson(join(root, '.claude-plugin', 'marketplace.json'));
    const versionOf = async (guard: string) =>
      (await readJson(join(root, 'packages', guard, 'package.json'))).version;
    const versions = (marketplace.plugins as { name: string; source: { version: string } }[]).map(
      (plugin) => [plugin.name, plugin.source.version],
    );
    expect(versions).toEqual([
      ['exit-status-guard', await versionOf('exit-status-guard')],
      ['git-write-gate', '9.9.9'],
      ['git-write-gate-strict', '9.9.9'],
      ['roseline-gate', await versionOf('roseline-gate')],
    ]);
  });
});
