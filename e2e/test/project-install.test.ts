import { cpSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { git } from '@kit/test-kit';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { type ClaudeRun, runClaude } from '../src/claude.ts';
import { guardCases } from '../src/guard-cases.ts';
import { runGuardCli } from '../src/kit.ts';
import { deniedIds, describeRun, readHandlers } from '../src/scenario.ts';
import { removeScratch, scratchDir, scratchRepo } from '../src/scratch.ts';

const source = inject('kitSource');
afterAll(removeScratch);

const { tree, call, ran, opener } = guardCases.find(
  (c) => c.guard === 'exit-status-guard',
) as (typeof guardCases)[number];

// A project install as a team has it: run from a subfolder of the repository, committed, and
// used from a clone in another folder after the first checkout is gone. What proves the entry is
// the real CLI denying in the clone: it expands ${CLAUDE_PROJECT_DIR} in the handler's args.
describe('exit-status-guard install --project from a subfolder, committed, used in a clone', () => {
  let top: string;
  let clone: string;
  let install: Awaited<ReturnType<typeof runGuardCli>>;
  let run: ClaudeRun;
  beforeAll(async () => {
    top = await scratchRepo('project-install', { ...tree, 'src/lib/index.ts': '' });
    const home = await scratchDir('project-install-home');
    install = await runGuardCli(source, 'exit-status-guard', ['install', '--project'], {
      cwd: join(top, 'src', 'lib'),
      home,
    });
    git(top, 'add', '.claude');
    git(top, 'commit', '-q', '-m', 'wire exit-status-guard');
    clone = join(await scratchDir('project-install-clone'), 'repo');
    cpSync(top, clone, { recursive: true });
    rmSync(top, { recursive: true, force: true });
    run = await runClaude({ cwd: clone, home, script: [call(clone)] });
  });

  test('install wrote the top of the work tree, naming the bundle through ${CLAUDE_PROJECT_DIR}', async () => {
    expect(install.exitCode, install.stderr).toBe(0);
    expect(install.stdout).toContain(`  project  ${top} (the top of the work tree; start Claude Code there)`);
    expect(await readHandlers(join(clone, '.claude', 'settings.json'))).toEqual([
      {
        type: 'command',
        command: 'node',
        args: ['${CLAUDE_PROJECT_DIR}/.claude/hooks/exit-status-guard.cjs'],
        timeout: 5,
      },
    ]);
    expect(existsSync(join(clone, 'src', 'lib', '.claude'))).toBe(false);
  });

  test('the real CLI in the clone denies the call, and it never ran', () => {
    const [result] = run.toolResults;
    expect(result?.text.startsWith(opener), describeRun(run)).toBe(true);
    expect(deniedIds(run)).toEqual([result?.toolUseId]);
    expect(ran(clone, result?.text ?? '')).toBe(false);
  });
});
