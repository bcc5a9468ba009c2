import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { hookEnv, runHookCommand, tempDir } from '@kit/test-kit';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { hookCommand, quoteForShell } from '../src/cli/hosts/shell-command.ts';
import { bashPayload, hostAdapters } from '../src/index.ts';
import { cli, makeGuard } from './cli-harness.ts';

const hasBash = spawnSync('bash', ['--version']).status === 0;

// The installed command is read by bash, as the hosts run it: a quoted word must come back as it was.
describe.skipIf(!hasBash || process.platform === 'win32')(
  'quoteForShell, checked by real bash',
  { timeout: 30_000 },
  () => {
    const echoed = (word: string) =>
      spawnSync('bash', ['-c', `printf %s ${quoteForShell(word)}`], {
        encoding: 'utf8',
        env: { HOME: tempDir() },
      }).stdout;

    test.for([
      '/home/u/.codex/hooks/exit-status-guard.cjs',
      '/home/my user/hooks/g.cjs',
      "/tmp/it's/g.cjs",
      '/tmp/$HOME/`id`/$(id)/g.cjs',
      '/tmp/a"b\\c/*.cjs',
      '~/g.cjs',
      '-n',
    ])('%s', (word) => expect(echoed(word)).toBe(word));

    // 60 bash processes: seconds on a loaded machine, past vitest's 5 s default.
    test('any string without NUL', { timeout: 60_000 }, () => {
      fc.assert(
        fc.property(
          fc.string({ minLength: 1, maxLength: 40 }).filter((s) => !s.includes('\0')),
          (word) => {
            expect(echoed(word)).toBe(word);
          },
        ),
        { numRuns: 60 },
      );
    });

    test('a plain path stays unquoted, so the installed command reads as it is', () =>
      expect(hookCommand('/home/u/.gemini/hooks/g.cjs', 'gemini', true)).toBe(
        'node /home/u/.gemini/hooks/g.cjs --host gemini 2>/dev/null || true',
      ));

    test('a project whose path has a space, a quote and a $ still gets a command that denies as the host runs it', async () => {
      const root = join(tempDir(), "my project's $HOME");
      mkdirSync(root);
      expect(
        (
          await cli(makeGuard(), ['install', '--host', 'copilot', '--project'], {
            cwd: root,
            home: tempDir(),
          })
        ).code,
      ).toBe(0);
      const command = hookCommand(join(root, '.github', 'hooks', 'example-guard.mjs'), 'copilot', true);
      const payload = hostAdapters.copilot.payloadOf(bashPayload('shred x', { cwd: root, sessionId: 's' }));
      const run = runHookCommand(
        { command: '/bin/bash', args: ['--norc', '--noprofile', '-c', command] },
        payload,
        {
          env: hookEnv({ HOME: tempDir() }),
        },
      );
      expect(hostAdapters.copilot.isDenyOutput(run.stdout), `${command}\n${run.stdout}${run.stderr}`).toBe(
        true,
      );
    });
  },
);
