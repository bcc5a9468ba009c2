import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { InstalledGuards, type JudgePluginPlace, judgePluginPlace } from '../src/mcp/installed-guards.ts';

// How the kit-judge plugin's one server finds each guard plugin's judge module: Claude Code's own
// record of the installed plugins (installed_plugins.json, version 2, as 2.1.332 writes it), else
// the guard's folder beside the judge plugin's.
const root = mkdtempSync(join(tmpdir(), 'kit-installed-guards-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let n = 0;
/** A scratch config dir with `plugins` as installed_plugins.json's records, and each named folder holding a judge module. */
function place(
  plugins: Record<string, object[]> | null,
  modules: string[],
  extra: Partial<JudgePluginPlace> = {},
): JudgePluginPlace {
  const dir = join(root, `case-${n++}`);
  for (const folder of modules) {
    mkdirSync(join(dir, folder, 'dist'), { recursive: true });
    writeFileSync(join(dir, folder, 'dist', 'judge.cjs'), '');
  }
  mkdirSync(join(dir, 'config', 'plugins'), { recursive: true });
  if (plugins !== null) {
    writeFileSync(
      join(dir, 'config', 'plugins', 'installed_plugins.json'),
      JSON.stringify({ version: 2, plugins }),
    );
  }
  return {
    configDir: join(dir, 'config'),
    pluginRoot: join(dir, 'cache', 'kit', 'kit-judge', '1.0.0'),
    pluginData: join(dir, 'config', 'plugins', 'data', 'kit-judge-kit'),
    projectDir: '/work/project',
    ...extra,
  };
}
/** Writes installed_plugins.json (version 2) with these records. */
const writeInstalled = (p: JudgePluginPlace, plugins: Record<string, object[]>) =>
  writeFileSync(
    join(p.configDir, 'plugins', 'installed_plugins.json'),
    JSON.stringify({ version: 2, plugins }),
  );
const at = (p: JudgePluginPlace, folder: string) => join(p.configDir, '..', folder);
const record = (p: JudgePluginPlace, folder: string, more: object = {}) => ({
  scope: 'user',
  installPath: at(p, folder),
  version: '1.0.0',
  ...more,
});

describe('InstalledGuards.moduleOf', () => {
  test("the installed plugin of the judge's marketplace: its installPath/dist/judge.cjs", () => {
    const p = place(null, ['gwg-1', 'other-mkt']);
    const guards = new InstalledGuards(p);
    writeInstalled(p, {
      'git-write-gate@other': [record(p, 'other-mkt')],
      'git-write-gate@kit': [record(p, 'gwg-1')],
      'kit-judge@kit': [record(p, 'judge')],
    });
    expect(guards.moduleOf('git-write-gate', 'git-write-gate')).toBe(
      join(at(p, 'gwg-1'), 'dist', 'judge.cjs'),
    );
  });

  test("a project-scoped install for the session's project wins over the user's", () => {
    const p0 = place(null, ['user', 'project', 'elsewhere']);
    const p = { ...p0 };
    writeInstalled(p, {
      'roseline-gate@kit': [
        record(p, 'elsewhere', { scope: 'project', projectPath: '/work/other' }),
        record(p, 'user'),
        record(p, 'project', { scope: 'project', projectPath: '/work/project' }),
      ],
    });
    expect(new InstalledGuards(p).moduleOf('roseline-gate', 'roseline-gate')).toBe(
      join(at(p, 'project'), 'dist', 'judge.cjs'),
    );
  });

  test('an update (a new installPath written to the record) is found at the next call', () => {
    const p = place(null, ['v1', 'v2']);
    const file = join(p.configDir, 'plugins', 'installed_plugins.json');
    const write = (folder: string, mtime: number) => {
      writeFileSync(
        file,
        JSON.stringify({ version: 2, plugins: { 'exit-status-guard@kit': [record(p, folder)] } }),
      );
      utimesSync(file, mtime, mtime);
    };
    const guards = new InstalledGuards(p);
    write('v1', 1_000);
    expect(guards.moduleOf('exit-status-guard', 'exit-status-guard')).toBe(
      join(at(p, 'v1'), 'dist', 'judge.cjs'),
    );
    write('v2', 2_000);
    expect(guards.moduleOf('exit-status-guard', 'exit-status-guard')).toBe(
      join(at(p, 'v2'), 'dist', 'judge.cjs'),
    );
  });

  test.for([
    [
      'no record at all: the guard folder beside the judge plugin',
      null,
      ['cache/kit/kit-judge/git-write-gate'],
      'cache/kit/kit-judge/git-write-gate',
    ],
    [
      'a record whose folder has no judge module: the sibling',
      { 'git-write-gate@kit': [{ installPath: '/nowhere' }] },
      ['cache/kit/kit-judge/git-write-gate'],
      'cache/kit/kit-judge/git-write-gate',
    ],
    ['neither: none', null, [], undefined],
    ['an unreadable record (not JSON) reads as none', 'garbage', [], undefined],
  ] as const)('%s', ([, plugins, folders, want]) => {
    const p = place(plugins === 'garbage' ? null : (plugins as Record<string, object[]> | null), [
      ...folders,
    ]);
    if (plugins === 'garbage') writeFileSync(join(p.configDir, 'plugins', 'installed_plugins.json'), '{oops');
    const found = new InstalledGuards(p).moduleOf('git-write-gate-strict', 'git-write-gate');
    expect(found).toBe(want === undefined ? undefined : join(at(p, want), 'dist', 'judge.cjs'));
  });
});

describe('InstalledGuards.enabledModules: what the judge warms up at start', () => {
  test("each plugin of the judge's marketplace enabled here, once each, never the judge's own nor another marketplace's", () => {
    const p = place(null, ['esg', 'gwg', 'other']);
    writeInstalled(p, {
      'exit-status-guard@kit': [record(p, 'esg')],
      'git-write-gate@kit': [record(p, 'gwg')],
      'git-write-gate-strict@kit': [record(p, 'gwg')],
      'roseline-gate@kit': [record(p, 'missing')],
      'exit-status-guard@other': [record(p, 'other')],
      'kit-judge@kit': [record(p, 'esg')],
    });
    const on = (ids: string[]) => Object.fromEntries(ids.map((id) => [id, true]));
    writeFileSync(
      join(p.configDir, 'settings.json'),
      JSON.stringify({
        enabledPlugins: on([
          'exit-status-guard@kit',
          'git-write-gate@kit',
          'git-write-gate-strict@kit',
          'roseline-gate@kit',
          'exit-status-guard@other',
          'kit-judge@kit',
        ]),
      }),
    );
    expect(new InstalledGuards(p).enabledModules().sort()).toEqual(
      [join(at(p, 'esg'), 'dist', 'judge.cjs'), join(at(p, 'gwg'), 'dist', 'judge.cjs')].sort(),
    );
  });

  // Each row: where git-write-gate@kit is installed, and what each settings file says of it.
  type Settings = { user?: boolean; project?: boolean; local?: boolean };
  test.for([
    ['installed for the user, enabled by the user (positive control)', 'user', { user: true }, true],
    ['installed for the user, disabled by the user', 'user', { user: false }, false],
    ['installed for the user, named in no settings', 'user', {}, false],
    ['enabled by the user, disabled by the project', 'user', { user: true, project: false }, false],
    ['disabled by the project, enabled again locally', 'user', { project: false, local: true }, true],
    ['installed for this project, enabled by the project', 'this project', { project: true }, true],
    ['installed for this project, disabled locally', 'this project', { project: true, local: false }, false],
    ['installed for another project only, enabled by the user', 'another project', { user: true }, false],
  ] as const)('%s', ([, scope, settings, loaded]: readonly [string, string, Settings, boolean]) => {
    const p = place(null, ['gwg']);
    const projectDir = join(p.configDir, '..', 'project');
    const where =
      scope === 'user'
        ? {}
        : { scope: 'project', projectPath: scope === 'this project' ? projectDir : '/work/other' };
    writeInstalled(p, { 'git-write-gate@kit': [record(p, 'gwg', where)] });
    const files = {
      user: join(p.configDir, 'settings.json'),
      project: join(projectDir, '.claude', 'settings.json'),
      local: join(projectDir, '.claude', 'settings.local.json'),
    };
    mkdirSync(join(projectDir, '.claude'), { recursive: true });
    for (const [file, on] of Object.entries(settings))
      writeFileSync(
        files[file as keyof Settings],
        JSON.stringify({ enabledPlugins: { 'git-write-gate@kit': on } }),
      );
    expect(new InstalledGuards({ ...p, projectDir }).enabledModules()).toEqual(
      loaded ? [join(at(p, 'gwg'), 'dist', 'judge.cjs')] : [],
    );
  });
});

describe('judgePluginPlace: from the environment the host starts the server with', () => {
  test.for([
    ['CLAUDE_CONFIG_DIR wins', { CLAUDE_CONFIG_DIR: '/c', HOME: '/h' }, '/c'],
    ['else ~/.claude', { HOME: '/h' }, '/h/.claude'],
    ['an empty CLAUDE_CONFIG_DIR is none', { CLAUDE_CONFIG_DIR: '', HOME: '/h' }, '/h/.claude'],
  ] as const)('%s', ([, env, want]) => {
    expect(judgePluginPlace(env).configDir).toBe(want);
  });
});
