import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, test } from 'vitest';
import { judgeInput } from '@kit/gate-approval';
import { type CommandResult, repoRoot, runCommand } from '@kit/test-kit';
import { guardCases } from '../src/guard-cases.ts';
import { requireKit } from '../src/kit.ts';
import { GUARDS } from '../src/pack.ts';
import { JUDGE_PACKAGE, readKitMarketplace, runClaudeCommand } from '../src/plugin.ts';
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

/** Expects the packed tarball of `@kit/<folder>` to hold these files. */
async function expectPacked(folder: string, files: string[]): Promise<void> {
  const packed = requireKit(source).packages.find((p) => p.name === `@kit/${folder}`);
  const listing = await runCommand('tar', ['-tzf', String(packed?.tarball)], { cwd: repoRoot });
  expect(listing.stdout.split('\n'), shown(listing)).toEqual(expect.arrayContaining(files));
}

/** The one server every guard plugin's handler names: the kit-judge plugin's `judge`. */
const judgeServer = 'plugin:kit-judge:judge';

/** A guard plugin's PreToolUse handler: the judge's hidden tool, asked for `guard` on behalf of `plugin`
 * (in strict mode, or in monitor mode), 5 s. */
function judgeHandler(
  guard: string,
  plugin: string,
  strict = false,
  monitor = false,
): Record<string, unknown> {
  return {
    type: 'mcp_tool',
    server: judgeServer,
    tool: 'judge',
    input: judgeInput(guard, { plugin, strict, monitor }),
    timeout: 5,
    ...(strict ? { onFailure: 'block' } : {}),
  };
}

describe.for(guardCases)('$guard ships its plugin', (guardCase) => {
  const dir = packageDir(guardCase.guard);
  // The tool of the guard's deny call is the tool its hook matches.
  const matcher = guardCase.call(dir).name;

  test('plugin.json: its name, its package version and description, and its dependency on kit-judge', async () => {
    const manifest = await readJson(join(dir, 'package.json'));
    expect(await readJson(join(dir, '.claude-plugin', 'plugin.json'))).toMatchObject({
      name: guardCase.guard,
      version: manifest.version,
      description: manifest.description,
      dependencies: ['kit-judge'],
    });
  });

  test(`hooks/hooks.json: one PreToolUse handler on ${matcher}, the judge's mcp_tool with the whole payload template, 5 s`, async () => {
    const hooks = (await readJson(join(dir, 'hooks', 'hooks.json'))).hooks;
    expect(hooks).toEqual({
      PreToolUse: [{ matcher, hooks: [judgeHandler(guardCase.guard, guardCase.guard)] }],
    });
  });

  test('the packed tarball holds the plugin manifest, the hooks file and the judge module', async () => {
    await expectPacked(guardCase.guard, [
      'package/.claude-plugin/plugin.json',
      'package/hooks/hooks.json',
      'package/dist/judge.cjs',
      'package/dist/hook.cjs',
    ]);
  });

  test('claude plugin validate --strict passes on the package folder', async () => {
    const home = await scratchDir(`${guardCase.guard}-validate`);
    const result = await runClaudeCommand(['plugin', 'validate', '--strict', dir], home);
    expect(result.exitCode, shown(result)).toBe(0);
    expect(result.stdout).toContain(`PreToolUse ${matcher} mcp_tool ${judgeServer} judge`);
  });
});

describe('@kit/gate-approval ships the kit-judge plugin', () => {
  const dir = packageDir(JUDGE_PACKAGE);

  test('plugin.json names kit-judge at the package version; .mcp.json declares one server, judge, on the bundled entry with a small young generation', async () => {
    const manifest = await readJson(join(dir, 'package.json'));
    expect(await readJson(join(dir, '.claude-plugin', 'plugin.json'))).toMatchObject({
      name: 'kit-judge',
      version: manifest.version,
    });
    expect(await readJson(join(dir, '.mcp.json'))).toEqual({
      mcpServers: {
        judge: {
          command: 'node',
          args: ['--max-semi-space-size=1', '${CLAUDE_PLUGIN_ROOT}/dist/judge-plugin.cjs'],
        },
      },
    });
  });

  test('hooks/hooks.json: one UserPromptSubmit command hook, the judge watch (never a PreToolUse one)', async () => {
    expect((await readJson(join(dir, 'hooks', 'hooks.json'))).hooks).toEqual({
      UserPromptSubmit: [
        {
          hooks: [
            {
              type: 'command',
              command: 'node',
              args: ['${CLAUDE_PLUGIN_ROOT}/dist/judge-watch.cjs'],
              timeout: 10,
            },
          ],
        },
      ],
    });
  });

  test('the packed tarball holds the plugin manifest, .mcp.json and the server it names', async () => {
    await expectPacked(JUDGE_PACKAGE, [
      'package/.claude-plugin/plugin.json',
      'package/.mcp.json',
      'package/hooks/hooks.json',
      'package/dist/judge-plugin.cjs',
      'package/dist/judge-watch.cjs',
    ]);
  });

  test('claude plugin validate --strict passes and lists the server and the prompt hook', async () => {
    const result = await runClaudeCommand(
      ['plugin', 'validate', '--strict', dir],
      await scratchDir('kit-judge-validate'),
    );
    expect(result.exitCode, shown(result)).toBe(0);
    expect(result.stdout).toContain(
      'mcpServers: judge stdio node ["--max-semi-space-size=1","${CLAUDE_PLUGIN_ROOT}/dist/judge-plugin.cjs"]',
    );
    expect(result.stdout).toContain(
      'hooks: UserPromptSubmit command node ["${CLAUDE_PLUGIN_ROOT}/dist/judge-watch.cjs"]',
    );
  });
});

describe('the marketplace (.claude-plugin/marketplace.json)', () => {
  test('lists each guard and kit-judge, installed from its npm package at the package version', async () => {
    const marketplace = await readKitMarketplace();
    const entries: [string, string][] = [
      ...GUARDS.map((g): [string, string] => [g, g]),
      ['kit-judge', JUDGE_PACKAGE],
    ];
    for (const [plugin, folder] of entries) {
      const { version } = await readJson(join(packageDir(folder), 'package.json'));
      const entry = marketplace.plugins.find((p) => p.name === plugin);
      expect(entry?.source, plugin).toEqual({ source: 'npm', package: `@kit/${folder}`, version });
    }
  });

  test("git-write-gate-strict: git-write-gate's package, with a judge handler that asks in strict mode and blocks on failure", async () => {
    const marketplace = await readKitMarketplace();
    const { version } = await readJson(join(packageDir('git-write-gate'), 'package.json'));
    expect(marketplace.plugins.find((plugin) => plugin.name === 'git-write-gate-strict')).toEqual(
      expect.objectContaining({
        source: { source: 'npm', package: '@kit/git-write-gate', version },
        hooks: {
          PreToolUse: [
            { matcher: 'Bash', hooks: [judgeHandler('git-write-gate', 'git-write-gate-strict', true)] },
          ],
        },
      }),
    );
  });

  test.for(guardCases.map((guardCase) => guardCase.guard))(
    '%s-monitor: the same package, with the judge handler in monitor mode (no onFailure), as hooks/monitor.json has it',
    async (guard) => {
      const marketplace = await readKitMarketplace();
      const { version } = await readJson(join(packageDir(guard), 'package.json'));
      const matcher = guardCases.find((guardCase) => guardCase.guard === guard)?.call(packageDir(guard)).name;
      const hooks = {
        PreToolUse: [{ matcher, hooks: [judgeHandler(guard, `${guard}-monitor`, false, true)] }],
      };
      expect(marketplace.plugins.find((plugin) => plugin.name === `${guard}-monitor`)).toEqual(
        expect.objectContaining({
          source: { source: 'npm', package: `@kit/${guard}`, version },
          hooks,
          dependencies: ['kit-judge'],
        }),
      );
      // The entry inlines the package's monitor.json: Claude Code reads no hooks file path in an entry.
      expect((await readJson(join(packageDir(guard), 'hooks', 'monitor.json'))).hooks).toEqual(hooks);
    },
  );

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
    for (const guard of [...GUARDS, JUDGE_PACKAGE]) {
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
      `.claude-plugin/marketplace.json: plugins["git-write-gate-monitor"].source.version is ${manifest.version}, its package is at 9.9.9`,
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
      ['kit-judge', await versionOf(JUDGE_PACKAGE)],
      ['exit-status-guard', await versionOf('exit-status-guard')],
      ['exit-status-guard-monitor', await versionOf('exit-status-guard')],
      ['git-write-gate', '9.9.9'],
      ['git-write-gate-strict', '9.9.9'],
      ['git-write-gate-monitor', '9.9.9'],
      ['roseline-gate', await versionOf('roseline-gate')],
      ['roseline-gate-monitor', await versionOf('roseline-gate')],
    ]);
  });
});
