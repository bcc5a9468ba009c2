import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hookEnv, recordingIO, runHookCommand, tempDir, tempTree } from '@kit/test-kit';
import { describe, expect, test } from 'vitest';
import { bashPayload, hostAdapters, runCli } from '../src/index.ts';
import { cli, makeGuard } from './cli-harness.ts';

const guard = makeGuard();
type Host = 'codex' | 'gemini' | 'copilot';
const hosts: readonly Host[] = ['codex', 'gemini', 'copilot'];

/** Where each host's project install puts the file and the bundle, relative to the project. */
const projectFiles: Record<Host, { config: string; bundle: string }> = {
  codex: { config: '.codex/hooks.json', bundle: '.codex/hooks/example-guard.mjs' },
  gemini: { config: '.gemini/settings.json', bundle: '.gemini/hooks/example-guard.mjs' },
  copilot: { config: '.github/hooks/example-guard.json', bundle: '.github/hooks/example-guard.mjs' },
};

/** A copy of a host's file with every handler's timeout set to `value` (in the host's own unit). */
function withTimeout(document: unknown, value: number): unknown {
  if (Array.isArray(document)) return document.map((item) => withTimeout(item, value));
  if (typeof document !== 'object' || document === null) return document;
  return Object.fromEntries(
    Object.entries(document).map(([key, item]) => [
      key,
      key.startsWith('timeout') && typeof item === 'number' ? value : withTimeout(item, value),
    ]),
  );
}

/** The file a fresh project install writes, exactly. */
function expectedConfig(host: Host, bundle: string): unknown {
  switch (host) {
    case 'codex':
      return {
        hooks: {
          PreToolUse: [
            {
              matcher: '^Bash$',
              hooks: [{ type: 'command', command: `node ${bundle} --host codex`, timeout: 5 }],
            },
          ],
        },
      };
    case 'gemini':
      return {
        hooks: {
          BeforeTool: [
            {
              matcher: 'run_shell_command',
              hooks: [
                {
                  type: 'command',
                  name: 'example-guard',
                  command: `node ${bundle} --host gemini 2>/dev/null || true`,
                  timeout: 5000,
                },
              ],
            },
          ],
        },
      };
    case 'copilot':
      return {
        version: 1,
        hooks: {
          preToolUse: [
            {
              type: 'command',
              bash: `node ${bundle} --host copilot 2>/dev/null || true`,
              matcher: 'bash',
              timeoutSec: 5,
            },
          ],
        },
      };
  }
}

/** The installed command as the host runs it: through bash, the host's payload on stdin. */
function runAsHost(host: Host, command: string, payload: unknown, env = hookEnv()) {
  const shell = host === 'copilot' ? ['--norc', '--noprofile', '-c'] : ['-c'];
  return runHookCommand({ command: '/bin/bash', args: [...shell, command] }, payload, { env });
}

function installedCommand(host: Host, root: string): string {
  const config = JSON.parse(readFileSync(join(root, projectFiles[host].config), 'utf8'));
  if (host === 'copilot') return config.hooks.preToolUse[0].bash;
  return (host === 'codex' ? config.hooks.PreToolUse : config.hooks.BeforeTool)[0].hooks[0].command;
}

const shred = (host: Host, cwd: string) =>
  hostAdapters[host].payloadOf(bashPayload('shred secrets.txt', { cwd, sessionId: 's1' }));

// These hosts run their hooks through bash (no exec form), on Linux and macOS: so do these tests.
describe.skipIf(process.platform === 'win32')(
  'install --host, the command run through bash as the host does',
  () => {
    describe.for(hosts)('install --host %s --project', (host) => {
      test('writes the host’s file and the bundle, and the command denies the positive control as the host runs it', async () => {
        const root = tempTree({ 'src/app.ts': '' });
        const result = await cli(guard, ['install', '--host', host, '--project'], {
          cwd: root,
          home: tempDir(),
        });
        expect(result.stderr).toBe('');
        expect(result.code).toBe(0);
        expect(result.stdout).toContain(`installed example-guard (${host}, project scope)`);
        const bundle = join(root, projectFiles[host].bundle);
        expect(JSON.parse(readFileSync(join(root, projectFiles[host].config), 'utf8'))).toEqual(
          expectedConfig(host, bundle),
        );
        const run = runAsHost(host, installedCommand(host, root), shred(host, root));
        expect(run.exitCode).toBe(0);
        expect(hostAdapters[host].isDenyOutput(run.stdout), run.stdout).toBe(true);
        expect(
          runAsHost(host, installedCommand(host, root), hostAdapters[host].payloadOf(bashPayload('ls'))),
        ).toEqual({
          exitCode: 0,
          stdout: '',
          stderr: '',
        });
      });

      test('a second install leaves the file byte-identical and says so', async () => {
        const root = tempTree();
        const home = tempDir();
        await cli(guard, ['install', '--host', host, '--project'], { cwd: root, home });
        const before = readFileSync(join(root, projectFiles[host].config));
        const again = await cli(guard, ['install', '--host', host, '--project'], { cwd: root, home });
        expect(again.code).toBe(0);
        expect(again.stdout).toContain(
          `example-guard is already installed (${host}, project scope); nothing changed`,
        );
        expect(readFileSync(join(root, projectFiles[host].config))).toEqual(before);
      });

      test('a file it cannot parse is refused and left byte-identical', async () => {
        const root = tempTree({ [projectFiles[host].config]: '{ "hooks": ' });
        const result = await cli(guard, ['install', '--host', host, '--project'], {
          cwd: root,
          home: tempDir(),
        });
        expect(result.code).toBe(1);
        expect(result.stderr).toMatch(/is not valid JSON .*; fix it by hand, nothing was changed\n$/);
        expect(readFileSync(join(root, projectFiles[host].config), 'utf8')).toBe('{ "hooks": ');
      });

      test('uninstall after install gives the project back as it was', async () => {
        const root = tempTree({ 'src/app.ts': '' });
        const home = tempDir();
        await cli(guard, ['install', '--host', host, '--project'], { cwd: root, home });
        const result = await cli(guard, ['uninstall', '--host', host, '--project'], { cwd: root, home });
        expect(result.code).toBe(0);
        expect(result.stdout).toContain(`uninstalled example-guard (${host}, project scope)`);
        const left = await import('node:fs').then((fs) => fs.readdirSync(root, { recursive: true }));
        expect(left.filter((entry) => !String(entry).startsWith('src'))).toEqual([]);
      });

      test('doctor passes, and fails with one clear line once the bundle is gone', async () => {
        const root = tempTree();
        const home = tempDir();
        await cli(guard, ['install', '--host', host, '--project'], { cwd: root, home });
        const healthy = await cli(guard, ['doctor', '--host', host, '--project'], { cwd: root, home });
        expect(healthy.stdout).toContain(
          `ok   positive control denied through \`${installedCommand(host, root)}\``,
        );
        if (host !== 'codex') expect(healthy.code).toBe(0);
        rmSync(join(root, projectFiles[host].bundle));
        const broken = await cli(guard, ['doctor', '--host', host, '--project'], { cwd: root, home });
        expect(broken.code).toBe(1);
        expect(broken.stdout).toMatch(
          /^FAIL the bundle .* is missing: run `example-guard install --host .* --project`/m,
        );
      });

      // Every branch of the host doctor's installation lines (issue 22: "not what install writes"
      // was asserted nowhere, and a mutation there stayed green).
      test.for([
        [
          'no file',
          () => null,
          /^FAIL .* does not exist: run `example-guard install --host \w+ --project`$/m,
        ],
        [
          'a file without the handler',
          () => ({ ...(host === 'copilot' ? { version: 1 } : {}), hooks: {} }),
          /^FAIL no example-guard handler in .*: run `example-guard install --host \w+ --project`$/m,
        ],
        [
          'the handler, with another timeout',
          (installed: unknown) => withTimeout(installed, 9),
          /^FAIL the example-guard entry in .* is not the one install writes \(matcher .*\): run `example-guard install --host \w+ --project` to upgrade it$/m,
        ],
      ] as const)('doctor: %s is a FAIL line naming the fix', async ([, edit, line]) => {
        const root = tempTree();
        const home = tempDir();
        await cli(guard, ['install', '--host', host, '--project'], { cwd: root, home });
        const config = join(root, projectFiles[host].config);
        const edited = edit(JSON.parse(readFileSync(config, 'utf8')));
        if (edited === null) rmSync(config);
        else writeFileSync(config, JSON.stringify(edited));
        const result = await cli(guard, ['doctor', '--host', host, '--project'], { cwd: root, home });
        expect(result.code).toBe(1);
        expect(result.stdout).toMatch(line);
        expect(result.stdout).not.toMatch(/^ok {3}positive control/m);
      });

      test('--strict cannot be kept there: refused, nothing written', async () => {
        const root = tempTree();
        const result = await cli(guard, ['install', '--host', host, '--project', '--strict'], {
          cwd: root,
          home: tempDir(),
        });
        expect(result.code).toBe(1);
        expect(result.stderr).toMatch(/^install: --strict cannot be kept on (Codex|Gemini|Copilot) CLI: /);
      });

      test('--local is Claude Code’s alone', async () => {
        const result = await cli(guard, ['install', '--host', host, '--local'], {
          cwd: tempTree(),
          home: tempDir(),
        });
        expect(result.code).toBe(1);
        expect(result.stderr).toMatch(/has no local scope; choose --user or --project/);
      });
    });

    // The hosts that block a call when the hook exits non-zero get a command that cannot: the proof.
    describe.for(['gemini', 'copilot'] as const)('%s: the installed command fails open', (host) => {
      test.for([
        ['the bundle removed', (root: string) => rmSync(join(root, projectFiles[host].bundle))],
        [
          'the bundle broken',
          (root: string) => writeFileSync(join(root, projectFiles[host].bundle), 'throw new Error("x")\n'),
        ],
      ] as const)('%s: exit 0, nothing printed', async ([, breakIt]) => {
        const root = tempTree();
        await cli(guard, ['install', '--host', host, '--project'], { cwd: root, home: tempDir() });
        breakIt(root);
        expect(runAsHost(host, installedCommand(host, root), shred(host, root))).toEqual({
          exitCode: 0,
          stdout: '',
          stderr: '',
        });
      });
      test('node not on PATH: exit 0, nothing printed', async () => {
        const root = tempTree();
        await cli(guard, ['install', '--host', host, '--project'], { cwd: root, home: tempDir() });
        const emptyBin = tempDir();
        expect(
          runAsHost(host, installedCommand(host, root), shred(host, root), {
            PATH: emptyBin,
            // bash started with a socket on stdin (node's pipes) reads ~/.bashrc: keep the runner's out.
            HOME: tempDir(),
          }),
        ).toEqual({
          exitCode: 0,
          stdout: '',
          stderr: '',
        });
      });
    });

    describe('install --host keeps what else is in the file', () => {
      test('gemini: the user settings keep their keys, order and layout; uninstall restores them byte for byte', async () => {
        const home = tempDir();
        const original =
          '{\n    "security": { "auth": { "selectedType": "gemini-api-key" } },\n    "hooks": { "BeforeTool": [ { "matcher": "write_file", "hooks": [ { "type": "command", "command": "mine" } ] } ] }\n}\n';
        mkdirSync(join(home, '.gemini'));
        writeFileSync(join(home, '.gemini', 'settings.json'), original);
        expect((await cli(guard, ['install', '--host', 'gemini'], { cwd: tempDir(), home })).code).toBe(0);
        const settings = JSON.parse(readFileSync(join(home, '.gemini', 'settings.json'), 'utf8'));
        expect(Object.keys(settings)).toEqual(['security', 'hooks']);
        expect(settings.hooks.BeforeTool.map((group: { matcher: string }) => group.matcher)).toEqual([
          'write_file',
          'run_shell_command',
        ]);
        expect(readFileSync(join(home, '.gemini', 'settings.json.bak'), 'utf8')).toBe(original);
        expect((await cli(guard, ['uninstall', '--host', 'gemini'], { cwd: tempDir(), home })).code).toBe(0);
        expect(readFileSync(join(home, '.gemini', 'settings.json'), 'utf8')).toBe(original);
      });

      test('codex: uninstall leaves $CODEX_HOME itself, even empty', async () => {
        const codexHome = tempDir();
        const where = { cwd: tempDir(), home: tempDir(), env: { CODEX_HOME: codexHome } };
        await cli(guard, ['install', '--host', 'codex'], where);
        expect((await cli(guard, ['uninstall', '--host', 'codex'], where)).code).toBe(0);
        const { readdirSync } = await import('node:fs');
        expect(readdirSync(codexHome)).toEqual([]);
      });

      test('codex: $CODEX_HOME names the user scope', async () => {
        const codexHome = tempDir();
        const home = tempDir();
        const result = await cli(guard, ['install', '--host', 'codex'], {
          cwd: tempDir(),
          home,
          env: { CODEX_HOME: codexHome },
        });
        expect(result.stdout).toContain(`settings ${join(codexHome, 'hooks.json')} (handler added`);
        expect(result.stdout).toContain('Codex CLI runs a hook only once you trust it');
      });

      test('copilot: a hooks file with another handler keeps it', async () => {
        const root = tempTree({
          '.github/hooks/example-guard.json': JSON.stringify({
            version: 1,
            hooks: { preToolUse: [{ type: 'command', bash: 'echo mine' }] },
          }),
        });
        await cli(guard, ['install', '--host', 'copilot', '--project'], { cwd: root, home: tempDir() });
        const file = JSON.parse(readFileSync(join(root, '.github/hooks/example-guard.json'), 'utf8'));
        expect(file.hooks.preToolUse.map((h: { bash: string }) => h.bash)).toEqual([
          'echo mine',
          `node ${join(root, '.github/hooks/example-guard.mjs')} --host copilot 2>/dev/null || true`,
        ]);
      });

      test.for([
        [
          'gemini',
          '.gemini/settings.json',
          '{"hooks":{"BeforeTool":{}}}',
          '"hooks.BeforeTool" is not an array',
        ],
        ['codex', '.codex/hooks.json', '{"hooks":{"PreToolUse":"x"}}', '"hooks.PreToolUse" is not an array'],
        [
          'copilot',
          '.github/hooks/example-guard.json',
          '{"version":2}',
          '"version" is 2, and only version 1 is known',
        ],
      ] as const)(
        '%s: a file of the wrong shape is refused and left as it was',
        async ([host, file, text, why]) => {
          const root = tempTree({ [file]: text });
          const result = await cli(guard, ['install', '--host', host, '--project'], {
            cwd: root,
            home: tempDir(),
          });
          expect(result.code).toBe(1);
          expect(result.stderr).toContain(why);
          expect(readFileSync(join(root, file), 'utf8')).toBe(text);
        },
      );
    });

    describe('install --host refuses what the host cannot run', () => {
      test('a Read guard on Codex CLI, which has no file-read tool', async () => {
        const readGuard = { ...guard, name: 'read-guard', matcher: 'Read' };
        const result = await cli(readGuard, ['install', '--host', 'codex'], {
          cwd: tempDir(),
          home: tempDir(),
        });
        expect(result.code).toBe(1);
        expect(result.stderr).toBe(
          'install: Codex CLI has no Read tool (its model reads files with the shell), so read-guard would never run there\n',
        );
      });
      test('an unknown host', async () => {
        const result = await cli(guard, ['install', '--host', 'cursor'], { cwd: tempDir(), home: tempDir() });
        expect(result.code).toBe(1);
        expect(result.stderr).toBe(
          'install: unknown host "cursor"; choose one of claude, codex, gemini, copilot\n',
        );
      });
    });

    describe('doctor warns of what only the host shows', () => {
      test('copilot: the same guard installed for Claude Code in the project runs twice there', async () => {
        const root = tempTree();
        const home = tempDir();
        await cli(guard, ['install', '--project'], { cwd: root, home });
        await cli(guard, ['install', '--host', 'copilot', '--project'], { cwd: root, home });
        const result = await cli(guard, ['doctor', '--host', 'copilot', '--project'], { cwd: root, home });
        expect(result.code).toBe(0);
        expect(result.stdout).toMatch(
          /^warn .*\.claude\/settings\.json also has example-guard for Claude Code/m,
        );
      });
      test('codex: without codex on PATH, trust cannot be read: a warning says what that means', async () => {
        const root = tempTree();
        const home = tempDir();
        await cli(guard, ['install', '--host', 'codex', '--project'], { cwd: root, home });
        const result = await cli(guard, ['doctor', '--host', 'codex', '--project'], {
          cwd: root,
          home,
          env: { PATH: `${tempDir()}:/usr/bin:/bin` },
        });
        expect(result.stdout).toMatch(
          /^warn codex is not on PATH, so doctor cannot ask whether Codex trusts the hook/m,
        );
      });
    });

    describe('hook --host NAME: the bin speaks the host the way the bundle does', () => {
      test.for(hosts)('%s', async (host) => {
        const io = recordingIO({ stdin: async () => JSON.stringify(shred(host, '/tmp')) });
        expect(await runCli(guard, ['hook', '--host', host], io)).toBe(0);
        expect(hostAdapters[host].isDenyOutput(io.out()), io.out()).toBe(true);
      });
      test('an unknown host: no opinion', async () => {
        const io = recordingIO({ stdin: async () => JSON.stringify(bashPayload('shred x')) });
        expect(await runCli(guard, ['hook', '--host', 'cursor'], io)).toBe(0);
        expect(io.out()).toBe('');
      });
    });
  },
);
