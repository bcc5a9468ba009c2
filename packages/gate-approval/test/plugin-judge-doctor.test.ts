// Issue 25 item 3, issue 26 item 4: doctor proves the plugin route's MCP path end to end. A guard
// plugin's handler is `mcp_tool` naming `plugin:kit-judge:judge`; doctor finds the kit-judge plugin as
// Claude Code recorded it, starts its .mcp.json server as the host would and sends the positive
// control through the handler's own input. The HOME trees are laid out as `claude plugin install`
// leaves them (2.1.332, checked with the real CLI): enabledPlugins in settings.json, records in
// installed_plugins.json, the packages in the cache, and a marketplace entry's own hooks (the strict
// variant's) in the marketplace.json that known_marketplaces.json points at.
import { copyFileSync, cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Tree, tempRepo, tempTree, writeTree } from '@kit/test-kit';
import { describe, expect, test } from 'vitest';
import { judgeInput } from '../src/mcp/payload-template.ts';
import { cli, makeGuard } from './cli-harness.ts';

const guard = makeGuard();
const gateApprovalDist = fileURLToPath(new URL('../dist/', import.meta.url));
const packageRoot = fileURLToPath(new URL('../', import.meta.url));
const judgePlugin = (home: string) => join(home, '.claude/plugins/cache/kit/kit-judge/1.0.0');
const guardPlugin = (home: string, name = 'example-guard') =>
  join(home, `.claude/plugins/cache/kit/${name}/1.0.0`);

/** The handler a guard plugin ships: the kit-judge server, the guard's payload template. */
function mcpHandler(plugin: string, strict: boolean, monitor = false): Record<string, unknown> {
  return {
    type: 'mcp_tool',
    server: 'plugin:kit-judge:judge',
    tool: 'judge',
    input: judgeInput('example-guard', { plugin, strict, monitor }),
    timeout: 5,
    ...(strict ? { onFailure: 'block' } : {}),
  };
}
const hooksOf = (handler: Record<string, unknown>) => ({
  hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [handler] }] },
});

// The example guard's judge module, as a guard package's dist/judge.cjs: it denies `shred`.
const judgeModule = [
  `const { bashInput, defineJudge, deny, none } = require(${JSON.stringify(join(gateApprovalDist, 'index.cjs'))});`,
  "exports.judge = defineJudge({ guard: 'example-guard', evaluate: (input) => {",
  '  const bash = bashInput(input);',
  "  return bash && /^shred\\b/.test(bash.command) ? deny('example-guard', 'use `rm` instead of `shred`', 'no-shred') : none();",
  '} });',
  '',
].join('\n');

/**
 * A HOME with the guard plugin `plugin` (the plain one, or the strict or monitor variant whose handler
 * is in its marketplace entry) and the kit-judge plugin installed and enabled from marketplace `kit`: the
 * judge's copy holds this package's own .mcp.json and dist/judge-plugin.cjs.
 */
function homeWithJudge(plugin: 'example-guard' | 'example-guard-strict' | 'example-guard-monitor'): string {
  const home = tempTree();
  const marketplace = join(home, 'marketplace');
  const folder = guardPlugin(home, plugin);
  const tree: Tree = {
    '.claude/settings.json': JSON.stringify({
      enabledPlugins: { [`${plugin}@kit`]: true, 'kit-judge@kit': true },
    }),
    '.claude/plugins/installed_plugins.json': JSON.stringify({
      version: 2,
      plugins: {
        [`${plugin}@kit`]: [{ scope: 'user', installPath: folder, version: '1.0.0' }],
        'kit-judge@kit': [{ scope: 'user', installPath: judgePlugin(home), version: '1.0.0' }],
      },
    }),
    '.claude/plugins/known_marketplaces.json': JSON.stringify({
      kit: { source: { source: 'github', repo: 'kit-hooks/kit' }, installLocation: marketplace },
    }),
    'marketplace/.claude-plugin/marketplace.json': JSON.stringify({
      name: 'kit',
      plugins: [
        { name: 'kit-judge', source: './plugins/gate-approval' },
        { name: 'example-guard', source: './plugins/example-guard' },
        {
          name: 'example-guard-strict',
          source: './plugins/example-guard',
          ...hooksOf(mcpHandler(plugin, true)),
        },
        {
          name: 'example-guard-monitor',
          source: './plugins/example-guard',
          ...hooksOf(mcpHandler(plugin, false, true)),
        },
      ],
    }),
  };
  writeTree(home, tree);
  writeTree(folder, {
    '.claude-plugin/plugin.json': JSON.stringify({ name: 'example-guard', version: '1.0.0' }),
    // The package's own handler; the strict entry's hooks replace it.
    'hooks/hooks.json': JSON.stringify(hooksOf(mcpHandler('example-guard', false))),
    'dist/judge.cjs': judgeModule,
  });
  writeTree(judgePlugin(home), {
    '.claude-plugin/plugin.json': JSON.stringify({ name: 'kit-judge', version: '1.0.0' }),
    '.mcp.json': readFileSync(join(packageRoot, '.mcp.json'), 'utf8'),
    'dist/': '',
  });
  copyFileSync(
    join(gateApprovalDist, 'judge-plugin.cjs'),
    join(judgePlugin(home), 'dist', 'judge-plugin.cjs'),
  );
  return home;
}

// A server that lists a tool and has no opinion: the model would see it, and nothing is judged.
const toolListingServer = readFileSync(
  fileURLToPath(new URL('./fixtures/judges/tool-listing-server.cjs', import.meta.url)),
  'utf8',
);

const settings = (home: string) => join(home, '.claude', 'settings.json');

// The marketplace made a folder on this machine with relative sources (install-from-checkout's
// route): the CLI runs its plugins from that folder, not from their cache copies, so doctor must too.
function toLocalFolder(home: string): void {
  const marketplace = join(home, 'marketplace');
  editJson<{ kit: { source: unknown } }>(join(home, '.claude/plugins/known_marketplaces.json'), (s) => {
    s.kit.source = { source: 'directory', path: marketplace };
  });
  cpSync(judgePlugin(home), join(marketplace, 'plugins', 'gate-approval'), { recursive: true });
  cpSync(guardPlugin(home), join(marketplace, 'plugins', 'example-guard'), { recursive: true });
  rmSync(join(judgePlugin(home), 'dist', 'judge-plugin.cjs')); // the cache copy is not what runs
}
function editJson<T>(file: string, edit: (value: T) => void): void {
  const value = JSON.parse(readFileSync(file, 'utf8')) as T;
  edit(value);
  writeFileSync(file, JSON.stringify(value));
}

describe('doctor on the plugin route: the mcp_tool handler, proven through the kit-judge plugin', {
  timeout: 60_000,
}, () => {
  test.for([
    [
      'as installed',
      'example-guard',
      () => undefined,
      0,
      [
        /^ok {3}no example-guard handler in .*: the plugin example-guard@kit \(enabled in .*\) runs it$/m,
        /^ok {3}the plugin's handler \(.*example-guard\/1\.0\.0\/hooks\/hooks\.json\): matcher Bash, mcp_tool plugin:kit-judge:judge judge, timeout 5 s$/m,
        /^ok {3}server plugin:kit-judge:judge: node --max-semi-space-size=1 .*kit-judge\/1\.0\.0\/dist\/judge-plugin\.cjs \(the plugin kit-judge@kit, enabled in .*\)$/m,
        /^ok {3}the judge serves these guard plugins here \(loaded when a session starts\): example-guard@kit$/m,
        /^ok {3}the server lists no tools: the model never sees plugin:kit-judge:judge$/m,
        /^ok {3}positive control denied through the judge server plugin:kit-judge:judge, as the handler asks it$/m,
      ],
    ],
    [
      'another guard plugin installed but disabled here: named as never loaded',
      'example-guard',
      (home: string) => {
        const other = join(home, 'other-guard');
        writeTree(other, { 'dist/judge.cjs': judgeModule });
        editJson<{ plugins: Record<string, unknown> }>(
          join(home, '.claude/plugins/installed_plugins.json'),
          (s) => (s.plugins['other-guard@kit'] = [{ scope: 'user', installPath: other, version: '1.0.0' }]),
        );
        editJson<{ enabledPlugins: Record<string, boolean> }>(
          settings(home),
          (s) => (s.enabledPlugins['other-guard@kit'] = false),
        );
      },
      0,
      [
        /^ok {3}the judge serves these guard plugins here \(loaded when a session starts\): example-guard@kit; installed but disabled here \(never loaded\): other-guard@kit$/m,
      ],
    ],
    [
      'the strict variant: its marketplace entry handler, reported as strict',
      'example-guard-strict',
      () => undefined,
      0,
      [
        /^ok {3}the plugin's handler \(the example-guard-strict entry of .*marketplace\.json\): matcher Bash, mcp_tool plugin:kit-judge:judge judge, timeout 5 s, strict \("strict": true: the judge asks the guard in strict mode\), onFailure block \(the host blocks the call when the judge fails\)$/m,
        /^ok {3}positive control denied through the judge server plugin:kit-judge:judge, as the handler asks it$/m,
      ],
    ],
    [
      'the monitor variant: its marketplace entry handler, reported as monitoring, the control judged as enforce mode judges it, and the promote command',
      'example-guard-monitor',
      () => undefined,
      0,
      [
        /^ok {3}the plugin's handler \(the example-guard-monitor entry of .*marketplace\.json\): matcher Bash, mcp_tool plugin:kit-judge:judge judge, timeout 5 s, monitoring \("monitor": true: the judge judges each call as enforce mode does, records each would-deny in the audit trail and tells the model nothing\)$/m,
        /^ok {3}positive control denied through the judge server plugin:kit-judge:judge, as the handler asks it$/m,
        /^ok {3}monitoring: example-guard-monitor@kit denies nothing; `example-guard report` lists what it would have denied\. To enforce: `claude plugin uninstall example-guard-monitor@kit && claude plugin install example-guard@kit`$/m,
      ],
    ],
    [
      'a local-folder marketplace: the plugins run from its folder',
      'example-guard',
      toLocalFolder,
      0,
      [
        /^ok {3}the plugin's handler \(.*\/marketplace\/plugins\/example-guard\/hooks\/hooks\.json\): /m,
        /^ok {3}server plugin:kit-judge:judge: node --max-semi-space-size=1 .*\/marketplace\/plugins\/gate-approval\/dist\/judge-plugin\.cjs /m,
        /^ok {3}positive control denied through the judge server plugin:kit-judge:judge, as the handler asks it$/m,
      ],
    ],
    [
      'kit-judge not enabled',
      'example-guard',
      (home: string) =>
        editJson<{ enabledPlugins: Record<string, boolean> }>(
          settings(home),
          (s) => (s.enabledPlugins['kit-judge@kit'] = false),
        ),
      1,
      [
        /^FAIL the handler names plugin:kit-judge:judge, but the kit-judge plugin is not enabled for this project: until it is, every call runs unjudged: `claude plugin install kit-judge@kit`$/m,
      ],
    ],
    [
      'kit-judge enabled, not installed',
      'example-guard-strict',
      (home: string) =>
        editJson<{ plugins: Record<string, unknown> }>(
          join(home, '.claude/plugins/installed_plugins.json'),
          (s) => delete s.plugins['kit-judge@kit'],
        ),
      1,
      [
        /^FAIL the kit-judge plugin kit-judge@kit \(enabled in .*\) is not installed: until it is, every call it matches is blocked: `claude plugin install kit-judge@kit`$/m,
      ],
    ],
    [
      'its .mcp.json declares no server',
      'example-guard',
      (home: string) => writeFileSync(join(judgePlugin(home), '.mcp.json'), '{"mcpServers":{}}'),
      1,
      [
        /^FAIL the kit-judge plugin in .* declares no judge server in \.mcp\.json, so its server cannot start/m,
      ],
    ],
    [
      'its server cannot start',
      'example-guard',
      (home: string) => rmSync(join(judgePlugin(home), 'dist', 'judge-plugin.cjs')),
      1,
      [
        /^FAIL the positive control did not deny through the judge server plugin:kit-judge:judge \(the server exited \(1\): Error: Cannot find module '.*judge-plugin\.cjs'\)$/m,
      ],
    ],
    [
      'the judge cannot find the guard: the control is not denied',
      'example-guard',
      (home: string) => rmSync(join(guardPlugin(home), 'dist', 'judge.cjs')),
      1,
      [
        /^FAIL the positive control did not deny through the judge server plugin:kit-judge:judge \(isError, /m,
      ],
    ],
    [
      'the strict variant, its guard gone: the control is not denied, and the host blocks every call',
      'example-guard-strict',
      (home: string) => rmSync(join(guardPlugin(home, 'example-guard-strict'), 'dist', 'judge.cjs')),
      1,
      [
        /^FAIL the positive control did not deny through the judge server plugin:kit-judge:judge \(isError, .*example-guard could not be loaded/m,
        /^FAIL this handler has "onFailure": "block" \(strict\): until it is fixed, the host blocks every Bash call it matches$/m,
      ],
    ],
    [
      'a server that lists its tool and has no opinion',
      'example-guard',
      (home: string) => writeFileSync(join(judgePlugin(home), 'dist', 'judge-plugin.cjs'), toolListingServer),
      1,
      [
        /^FAIL the server lists 1 tools: the model sees them$/m,
        /^FAIL the positive control did not deny through the judge server plugin:kit-judge:judge \(text ""\)$/m,
      ],
    ],
    [
      'a handler naming another server',
      'example-guard',
      (home: string) =>
        editJson<{ hooks: { PreToolUse: [{ hooks: [{ server: string }] }] } }>(
          join(guardPlugin(home), 'hooks', 'hooks.json'),
          (s) => {
            s.hooks.PreToolUse[0].hooks[0].server = 'plugin:example-guard:judge';
          },
        ),
      1,
      [/^FAIL the handler names the MCP server plugin:example-guard:judge, not plugin:kit-judge:judge/m],
    ],
  ] as const)('%s', async ([, plugin, edit, code, lines]) => {
    const home = homeWithJudge(plugin);
    edit(home);
    const result = await cli(guard, ['doctor'], { cwd: tempRepo(), home });
    for (const line of lines) expect(result.stdout).toMatch(line);
    if (plugin !== 'example-guard-monitor') expect(result.stdout).not.toMatch(/monitoring/);
    expect(result.code, result.stdout).toBe(code);
  });
});
