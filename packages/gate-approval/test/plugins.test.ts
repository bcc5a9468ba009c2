// A guard wired twice: Claude Code runs a settings handler and an enabled plugin's hook both, and of
// two enabled plugins with one name it runs only one. The HOME trees below are laid out as
// `claude plugin install` leaves them (2.1.332): enabledPlugins in a settings file, the record in
// ~/.claude/plugins/installed_plugins.json, the package's files in the cache folder.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Tree, tempRepo, tempTree, writeTree } from '@kit/test-kit';
import { describe, expect, test } from 'vitest';
import { cli, makeGuard } from './cli-harness.ts';

const guard = makeGuard();

/** A HOME with these plugins installed from marketplace `kit`, each a copy of the example guard's bundle. */
function homeWithPlugins(
  plugins: { id: string; pluginName?: string; flags?: string[] }[],
  enabledPlugins: Record<string, boolean> = Object.fromEntries(plugins.map((p) => [p.id, true])),
): string {
  const home = tempTree();
  const tree: Tree = { '.claude/settings.json': JSON.stringify({ enabledPlugins }) };
  const records: Record<string, object[]> = {};
  for (const { id, pluginName, flags = [] } of plugins) {
    const [name] = id.split('@');
    const installPath = join(home, '.claude', 'plugins', 'cache', 'kit', name as string, '1.0.0');
    records[id] = [{ scope: 'user', installPath, version: '1.0.0' }];
    const folder = `.claude/plugins/cache/kit/${name}/1.0.0`;
    tree[`${folder}/.claude-plugin/plugin.json`] = JSON.stringify({
      name: pluginName ?? name,
      version: '1.0.0',
    });
    tree[`${folder}/hooks/hooks.json`] = JSON.stringify({
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              {
                type: 'command',
                command: 'node',
                args: ['${CLAUDE_PLUGIN_ROOT}/dist/hook.mjs', ...flags],
                timeout: 5,
              },
            ],
          },
        ],
      },
    });
    tree[`${folder}/dist/hook.mjs`] = readFileSync(guard.bundle, 'utf8');
  }
  tree['.claude/plugins/installed_plugins.json'] = JSON.stringify({ version: 2, plugins: records });
  writeTree(home, tree);
  return home;
}

describe('doctor and install see the plugins that run this guard', () => {
  test('the plugin alone: doctor says so and runs the positive control through its hooks.json', async () => {
    const home = homeWithPlugins([{ id: 'example-guard@kit' }]);
    const result = await cli(guard, ['doctor'], { cwd: tempRepo(), home });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      `ok   no example-guard handler in ${join(home, '.claude', 'settings.json')}: the plugin example-guard@kit (enabled in ${join(home, '.claude', 'settings.json')}) runs it`,
    );
    expect(result.stdout).toContain(
      `ok   positive control denied through \`node ${join(home, '.claude/plugins/cache/kit/example-guard/1.0.0/dist/hook.mjs')}\``,
    );
  });

  test('a project handler and the plugin: install warns, doctor fails and says to remove the plugin', async () => {
    const home = homeWithPlugins([{ id: 'example-guard@kit' }]);
    const project = tempRepo();
    const install = await cli(guard, ['install', '--project'], { cwd: project, home });
    expect(install.code).toBe(0);
    expect(install.stderr).toBe(
      `warning: the plugin example-guard@kit (enabled in ${join(home, '.claude', 'settings.json')}) also runs example-guard, and Claude Code runs both a settings handler and a plugin, so every call is judged twice: remove the plugin: \`claude plugin uninstall example-guard@kit\` (the project's handler keeps guarding everyone who clones it)\n`,
    );
    const doctor = await cli(guard, ['doctor', '--project'], { cwd: project, home });
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toMatch(
      /^FAIL example-guard is wired twice, in .*\.claude\/settings\.json and as a plugin: the plugin example-guard@kit .*remove the plugin: `claude plugin uninstall example-guard@kit`/m,
    );
  });

  test('a user handler and the plugin: doctor says to remove the handler', async () => {
    const home = homeWithPlugins([{ id: 'example-guard@kit' }]);
    const cwd = tempRepo();
    await cli(guard, ['install', '--user'], { cwd, home });
    const doctor = await cli(guard, ['doctor', '--user'], { cwd, home });
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toContain('remove the handler: `example-guard uninstall --user`');
  });

  // Claude Code 2.1.332 runs the first of them in enabledPlugins (e2e plugin-marketplace-monitor.test.ts).
  const plain = { id: 'example-guard@kit' };
  const monitor = { id: 'example-guard-monitor@kit', pluginName: 'example-guard', flags: ['--monitor'] };
  const strict = { id: 'example-guard-strict@kit', pluginName: 'example-guard', flags: ['--strict'] };
  const userSettings = (home: string) => join(home, '.claude', 'settings.json');
  test.for([
    [
      'enforcing first, monitor beside it',
      [plain, monitor],
      'example-guard@kit and example-guard-monitor@kit are both enabled and carry one plugin name, example-guard: Claude Code runs the hooks of the first in enabledPlugins only, example-guard@kit (enforcing: it denies), so example-guard-monitor@kit (monitoring: it would record each would-deny) runs nothing. To enforce, keep example-guard@kit: `claude plugin uninstall example-guard-monitor@kit`; to monitor only, keep example-guard-monitor@kit: `claude plugin uninstall example-guard@kit`',
    ],
    [
      'monitor first, enforcing beside it',
      [monitor, plain],
      'example-guard-monitor@kit and example-guard@kit are both enabled and carry one plugin name, example-guard: Claude Code runs the hooks of the first in enabledPlugins only, example-guard-monitor@kit (monitoring: it denies nothing and records each would-deny), so example-guard@kit (enforcing: it would deny) runs nothing. To monitor only, keep example-guard-monitor@kit: `claude plugin uninstall example-guard@kit`; to enforce, keep example-guard@kit: `claude plugin uninstall example-guard-monitor@kit`',
    ],
    [
      'plain first, strict beside it',
      [plain, strict],
      'example-guard@kit and example-guard-strict@kit are both enabled and carry one plugin name, example-guard: Claude Code runs the hooks of the first in enabledPlugins only, example-guard@kit (enforcing: it denies), so example-guard-strict@kit (strict: it would deny, and refuse what it cannot judge) runs nothing. To enforce, keep example-guard@kit: `claude plugin uninstall example-guard-strict@kit`; to enforce in strict mode, keep example-guard-strict@kit: `claude plugin uninstall example-guard@kit`',
    ],
    [
      'strict first, plain beside it',
      [strict, plain],
      'example-guard-strict@kit and example-guard@kit are both enabled and carry one plugin name, example-guard: Claude Code runs the hooks of the first in enabledPlugins only, example-guard-strict@kit (strict: it denies, and refuses what it cannot judge), so example-guard@kit (enforcing: it would deny) runs nothing.',
    ],
    [
      'all three',
      [plain, strict, monitor],
      'so example-guard-strict@kit (strict: it would deny, and refuse what it cannot judge) and example-guard-monitor@kit (monitoring: it would record each would-deny) run nothing. To enforce, keep example-guard@kit: `claude plugin uninstall example-guard-strict@kit && claude plugin uninstall example-guard-monitor@kit`;',
    ],
  ] as const)(
    'two enabled plugins of one name, %s: doctor says which runs, what it does, and the command for each',
    async ([, plugins, line]) => {
      const doctor = await cli(guard, ['doctor'], { cwd: tempRepo(), home: homeWithPlugins([...plugins]) });
      expect(doctor.code).toBe(1);
      expect(doctor.stdout).toContain(line);
    },
  );

  test('the order is the merged enabledPlugins: the user file first, a plugin the project enables after it (with its scope)', async () => {
    const home = homeWithPlugins([plain, monitor], { 'example-guard-monitor@kit': true });
    const project = tempRepo({
      '.claude/settings.json': JSON.stringify({ enabledPlugins: { 'example-guard@kit': true } }),
    });
    const doctor = await cli(guard, ['doctor'], { cwd: project, home });
    expect(doctor.stdout).toContain(
      'Claude Code runs the hooks of the first in enabledPlugins only, example-guard-monitor@kit (monitoring: it denies nothing and records each would-deny), so example-guard@kit (enforcing: it would deny) runs nothing. To monitor only, keep example-guard-monitor@kit: `claude plugin uninstall example-guard@kit --scope project`; to enforce, keep example-guard@kit: `claude plugin uninstall example-guard-monitor@kit`',
    );
  });

  test.for([
    ['the monitor alone', [monitor], {}],
    [
      'the monitor, the enforcing one disabled in the project',
      [plain, monitor],
      { 'example-guard@kit': false },
    ],
    ['the strict one alone', [strict], {}],
  ] as const)('one enabled (%s): no same-name line', async ([, plugins, inProject]) => {
    const home = homeWithPlugins([...plugins]);
    const project = tempRepo({
      '.claude/settings.local.json': JSON.stringify({ enabledPlugins: inProject }),
    });
    const doctor = await cli(guard, ['doctor'], { cwd: project, home });
    expect(doctor.stdout).toContain(`(enabled in ${userSettings(home)}) runs it`);
    expect(doctor.stdout).not.toContain('carry one plugin name');
  });

  test.for([
    ['disabled in the project', { 'example-guard@kit': true }, { 'example-guard@kit': false }],
    ['another guard', { 'other-guard@kit': true }, {}],
    ['not enabled anywhere', {}, {}],
  ] as const)('no twin when the plugin is %s', async ([, user, inProject]) => {
    const home = homeWithPlugins([{ id: 'example-guard@kit' }, { id: 'other-guard@kit' }], { ...user });
    const project = tempRepo({
      '.claude/settings.local.json': JSON.stringify({ enabledPlugins: inProject }),
    });
    const install = await cli(guard, ['install', '--project'], { cwd: project, home });
    expect(install).toMatchObject({ code: 0, stderr: '' });
    expect((await cli(guard, ['doctor', '--project'], { cwd: project, home })).code).toBe(0);
  });
});
