import { existsSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { executable, tempDir, tempTree } from '@kit/test-kit';
import { describe, expect, test } from 'vitest';
import type { GuardDefinition } from '../src/index.ts';
import { cli } from './cli-harness.ts';
// @ts-expect-error: a plain .mjs fixture without declarations
import { exampleGuard, writeBundle } from './fixtures/example-guard/guard.mjs';

// Issue 25 item 3: install takes the MCP path (one judge server per session, an mcp_tool handler)
// when the user's Claude Code can take it, and the command hook otherwise, saying which; the real
// claude CLI declares the server (it rewrites ~/.claude.json itself, so the kit never writes it).

const gateApprovalDist = fileURLToPath(new URL('../dist/index.cjs', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

/** The real Claude Code binary of the workspace (e2e's pinned one), or null where it is not installed. */
function realClaude(): string | null {
  const store = join(repoRoot, 'node_modules', '.pnpm');
  const prefix = `@anthropic-ai+claude-code-${process.platform}-${process.arch}@`;
  const folder = existsSync(store) ? readdirSync(store).find((name) => name.startsWith(prefix)) : undefined;
  if (folder === undefined) return null;
  const binary = join(
    store,
    folder,
    'node_modules',
    '@anthropic-ai',
    `claude-code-${process.platform}-${process.arch}`,
    'claude',
  );
  return existsSync(binary) ? binary : null;
}
const claude = realClaude();

/** A PATH whose `claude` is the real CLI (or `fake`, a script), then the machine's. */
function pathWithClaude(fake?: string): string {
  const bin = tempTree(fake === undefined ? {} : { claude: executable(fake) });
  if (fake === undefined && claude !== null) symlinkSync(claude, join(bin, 'claude'));
  return `${bin}:${process.env.PATH}`;
}

/** The example guard, named `name`, with the MCP path's files beside its bundle (dist/judge.cjs, dist/mcp.cjs). */
function mcpGuard(name = 'example-guard'): GuardDefinition {
  const dist = tempTree();
  const bundle = writeBundle(dist, 'hook.mjs');
  const library = `require(${JSON.stringify(gateApprovalDist)})`;
  writeFileSync(
    join(dist, 'judge.cjs'),
    [
      `const { bashInput, defineJudge, deny, none } = ${library};`,
      `exports.judge = defineJudge({ guard: ${JSON.stringify(name)}, evaluate: (input) => {`,
      '  const bash = bashInput(input);',
      `  return bash && /^shred\\b/.test(bash.command) ? deny(${JSON.stringify(name)}, 'use \`rm\` instead of \`shred\`', 'no-shred') : none();`,
      '} });',
      '',
    ].join('\n'),
  );
  writeFileSync(join(dist, 'mcp.cjs'), `${library}.runJudgeProcess(process.argv.slice(2));\n`);
  return exampleGuard(bundle, name) as GuardDefinition;
}

/** A JSON file the test knows the shape of. */
function readJson(path: string) {
  return JSON.parse(readFileSync(path, 'utf8'));
}

const servers = (home: string, projectDir?: string) => {
  const config = readJson(join(home, '.claude.json'));
  return (projectDir === undefined ? config.mcpServers : config.projects?.[projectDir]?.mcpServers) ?? {};
};

describe.skipIf(claude === null)(
  'install chooses the MCP path with the real claude CLI',
  { timeout: 120_000 },
  () => {
    test('user scope: one shared server lists each guard; uninstall takes each out, the last removes it', async () => {
      const home = tempDir();
      const cwd = tempTree();
      const env = { PATH: pathWithClaude() };
      const [first, second] = [mcpGuard(), mcpGuard('other-guard')];
      const installed = await cli(first, ['install', '--user'], { cwd, home, env });
      expect(installed.code).toBe(0);
      expect(installed.stdout).toMatch(
        /^transport: mcp_tool, through the session's judge server kit-judge \(Claude Code 2\.\d+\.\d+;/m,
      );
      expect((await cli(second, ['install', '--user'], { cwd, home, env })).code).toBe(0);

      const hooks = join(home, '.claude', 'hooks');
      expect(servers(home)['kit-judge']).toEqual({
        type: 'stdio',
        command: 'node',
        args: [
          join(hooks, 'kit-judge.cjs'),
          join(hooks, 'example-guard.judge.cjs'),
          join(hooks, 'other-guard.judge.cjs'),
        ],
        env: {},
      });
      const groups = readJson(join(home, '.claude', 'settings.json')).hooks.PreToolUse;
      expect(groups[0]).toEqual({
        matcher: 'Bash',
        hooks: [
          {
            type: 'mcp_tool',
            server: 'kit-judge',
            tool: 'judge',
            input: {
              guard: 'example-guard',
              payload: expect.objectContaining({ tool_input: '${tool_input}', cwd: '${cwd}' }),
            },
            timeout: 5,
          },
        ],
      });
      expect(existsSync(join(hooks, 'example-guard.mjs'))).toBe(false); // no command bundle on this path

      const again = await cli(first, ['install', '--user'], { cwd, home, env });
      expect(again.stdout).toContain('example-guard is already installed (user scope); nothing changed');

      const out = await cli(first, ['uninstall', '--user'], { cwd, home, env });
      expect(out.code).toBe(0);
      expect(out.stdout).toContain(`  judge    ${join(hooks, 'example-guard.judge.cjs')} (removed)`);
      expect(servers(home)['kit-judge'].args).toEqual([
        join(hooks, 'kit-judge.cjs'),
        join(hooks, 'other-guard.judge.cjs'),
      ]);
      expect((await cli(second, ['uninstall', '--user'], { cwd, home, env })).code).toBe(0);
      expect(servers(home)).toEqual({});
      expect(existsSync(join(home, '.claude', 'settings.json'))).toBe(false);
      expect(existsSync(hooks) ? readdirSync(hooks) : []).toEqual([]);
    });

    test('local scope: the server is declared for the project; --strict keeps onFailure block on the mcp_tool handler', async () => {
      const home = tempDir();
      const root = tempTree({ '.git/': '' });
      const env = { PATH: pathWithClaude() };
      const result = await cli(mcpGuard(), ['install', '--local', '--strict'], { cwd: root, home, env });
      expect(result.code).toBe(0);
      expect(servers(home, root)['kit-judge'].args).toEqual([
        join(root, '.claude', 'hooks', 'kit-judge.cjs'),
        join(root, '.claude', 'hooks', 'example-guard.judge.cjs'),
      ]);
      const handler = readJson(join(root, '.claude', 'settings.local.json')).hooks.PreToolUse[0].hooks[0];
      expect(handler).toMatchObject({ type: 'mcp_tool', server: 'kit-judge', onFailure: 'block' });
      expect((await cli(mcpGuard(), ['uninstall', '--local'], { cwd: root, home, env })).code).toBe(0);
      expect(servers(home, root)).toEqual({});
    });

    test('--transport command keeps the command hook, and says so', async () => {
      const home = tempDir();
      const env = { PATH: pathWithClaude() };
      const result = await cli(mcpGuard(), ['install', '--user', '--transport', 'command'], {
        cwd: tempTree(),
        home,
        env,
      });
      expect(result.stdout).toMatch(/^transport: command hook \(as --transport command asked\)$/m);
      expect(readJson(join(home, '.claude', 'settings.json')).hooks.PreToolUse[0].hooks[0].type).toBe(
        'command',
      );
      expect(existsSync(join(home, '.claude.json'))).toBe(false);
    });

    test('a kit-judge server the user declared is left alone: install refuses, nothing written', async () => {
      const home = tempDir();
      const where = { cwd: tempTree(), home, env: { PATH: pathWithClaude() } };
      writeFileSync(
        join(home, '.claude.json'),
        JSON.stringify({ mcpServers: { 'kit-judge': { command: 'mine', args: ['--x'] } } }),
      );
      const result = await cli(mcpGuard(), ['install', '--user'], where);
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(
        'install: a server named kit-judge that install did not write is declared (mine --x); left as it is; the settings were not changed\n',
      );
      expect(servers(home)['kit-judge']).toEqual({ command: 'mine', args: ['--x'] });
      expect(existsSync(join(home, '.claude', 'settings.json'))).toBe(false);
    });

    test('from the MCP path to the command hook: the server lets the guard go, its judge module goes', async () => {
      const home = tempDir();
      const where = { cwd: tempTree(), home, env: { PATH: pathWithClaude() } };
      const guard = mcpGuard();
      await cli(guard, ['install', '--user'], where);
      const switched = await cli(guard, ['install', '--user', '--transport', 'command'], where);
      expect(switched.code).toBe(0);
      expect(switched.stdout).toContain(
        `  judge    ${join(home, '.claude', 'hooks', 'example-guard.judge.cjs')} (removed)`,
      );
      expect(servers(home)).toEqual({});
      expect(readdirSync(join(home, '.claude', 'hooks')).sort()).toEqual(['example-guard.mjs']);
      expect(readJson(join(home, '.claude', 'settings.json')).hooks.PreToolUse[0].hooks).toHaveLength(1);
    });
  },
);

// A server that lists a tool and has no opinion: the model would see it, and nothing is judged.
const toolListingServer = readFileSync(
  fileURLToPath(new URL('./fixtures/judges/tool-listing-server.cjs', import.meta.url)),
  'utf8',
);

// Issue 25 item 3: doctor proves the MCP path end to end, through the same server command and the
// same handler input; each way it can break is a FAIL line naming the fix.
describe.skipIf(claude === null)('doctor on the MCP path', { timeout: 120_000 }, () => {
  const hooks = (home: string) => join(home, '.claude', 'hooks');
  test.for([
    [
      'as installed',
      () => undefined,
      0,
      [
        /^ok {3}server kit-judge: node /m,
        /^ok {3}the server lists no tools: the model never sees kit-judge$/m,
        /^ok {3}positive control denied through the judge server kit-judge, as the handler asks it$/m,
      ],
    ],
    [
      'the handler input edited',
      (home: string) => {
        const file = join(home, '.claude', 'settings.json');
        writeFileSync(file, readFileSync(file, 'utf8').replace('${tool_input}', '${tool_input.command}'));
      },
      1,
      [
        /^FAIL the example-guard entry in .* is not the mcp_tool handler install writes .*: run `example-guard install --user` to upgrade it$/m,
      ],
    ],
    [
      'the judge module gone',
      (home: string) => rmSync(join(hooks(home), 'example-guard.judge.cjs')),
      1,
      [/^FAIL the judge module .*example-guard\.judge\.cjs is missing: run `example-guard install --user`$/m],
    ],
    [
      'the server no longer declared',
      (home: string) => {
        const file = join(home, '.claude.json');
        const config = readJson(file);
        delete config.mcpServers['kit-judge'];
        writeFileSync(file, JSON.stringify(config)); // a scratch HOME: no Claude Code is running on it
      },
      1,
      [
        /^FAIL the handler names the MCP server kit-judge, which Claude Code has not declared for the user scope/m,
      ],
    ],
    [
      'a server that lists its tool and has no opinion',
      (home: string) => writeFileSync(join(hooks(home), 'kit-judge.cjs'), toolListingServer),
      1,
      [
        /^FAIL the server lists 1 tools: the model sees them$/m,
        /^FAIL the positive control did not deny through the judge server kit-judge \(text ""\)$/m,
      ],
    ],
  ] as const)('%s', async ([, edit, code, lines]) => {
    const home = tempDir();
    const cwd = tempTree();
    const env = { PATH: pathWithClaude() };
    const guard = mcpGuard();
    expect((await cli(guard, ['install', '--user'], { cwd, home, env })).code).toBe(0);
    edit(home);
    const result = await cli(guard, ['doctor', '--user'], { cwd, home, env });
    for (const line of lines) expect(result.stdout).toMatch(line);
    expect(result.code, result.stdout).toBe(code);
  });
});

// Where the setup cannot take the MCP path: the command hook, with the reason; `--transport mcp` refused with it.
describe('install falls back to the command hook, and says why', () => {
  const oldClaude = '#!/bin/sh\necho "2.1.100 (Claude Code)"\n';
  test.for([
    ['claude not on PATH', { PATH: `${tempDir()}:/usr/bin:/bin` }, ['--user'], 'claude is not on PATH'],
    [
      'an older Claude Code',
      { PATH: pathWithClaude(oldClaude) },
      ['--user'],
      'Claude Code 2.1.100 is older than 2.1.332',
    ],
    [
      'project scope',
      { PATH: pathWithClaude(oldClaude) },
      ['--project'],
      'a project server in .mcp.json runs only once each user approves it',
    ],
    [
      '--monitor',
      { PATH: pathWithClaude(oldClaude) },
      ['--user', '--monitor'],
      '--monitor records through the command hook',
    ],
  ] as const)('%s', async ([, env, flags, why]) => {
    const home = tempDir();
    const cwd = tempTree();
    const refused = await cli(mcpGuard(), ['install', ...flags, '--transport', 'mcp'], { cwd, home, env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`install: --transport mcp cannot be had: ${why}`);
    expect(readdirSync(home)).toEqual([]);
    const result = await cli(mcpGuard(), ['install', ...flags], { cwd, home, env });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`transport: command hook (${why}`);
  });

  test('a guard that ships no judge, another host, a transport that does not exist', async () => {
    const guard = exampleGuard(writeBundle(tempTree(), 'hook.mjs')) as GuardDefinition;
    const where = { cwd: tempTree(), home: tempDir(), env: { PATH: pathWithClaude(oldClaude) } };
    expect((await cli(guard, ['install', '--user'], where)).stdout).toMatch(
      /^transport: command hook \(example-guard 0\.0\.0-test ships no MCP judge/m,
    );
    const codex = await cli(
      mcpGuard(),
      ['install', '--host', 'codex', '--user', '--transport', 'mcp'],
      where,
    );
    expect(codex.stderr).toBe(
      'install: --transport mcp is not yet on Codex CLI: it keeps the command hook\n',
    );
    const other = await cli(mcpGuard(), ['install', '--transport', 'http'], where);
    expect(other.stderr).toBe('install: --transport takes mcp or command, got "http"\n');
  });
});
