import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { machinePath } from '@kit/e2e/src/environment.ts';
import { removeScratch } from '@kit/e2e/src/scratch.ts';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { codexBinDir, listCodexHooks, trustCodexHooks } from '../src/codex-trust.ts';
import { describeRun, runHost } from '../src/host-cli.ts';
import { type HostProject, installForHost } from '../src/scenario.ts';

const source = inject('kitSource');
afterAll(removeScratch);

// Codex runs a user or project hook only once its hash is trusted in config.toml, and skips it
// without a word until then. The other files start codex with --dangerously-bypass-hook-trust; this
// one runs it as a user would, before and after trusting the hook install wrote.
describe('codex: the trust gate, without --dangerously-bypass-hook-trust', () => {
  let installed: HostProject;
  const withCodex = () => ({ PATH: `${codexBinDir()}:${machinePath()}` });
  beforeAll(async () => {
    installed = await installForHost(source, 'exit-status-guard', 'codex', {
      Makefile: 'test:\n\techo ran >> made-test.txt\n\techo tests passed\n',
    });
  });

  test('install says the hook must be trusted; untrusted, codex skips it and the command runs', async () => {
    expect(installed.installOutput.stdout).toContain('Codex CLI runs a hook only once you trust it');
    const run = await runHost('codex', {
      cwd: installed.project,
      home: installed.home,
      script: [{ shell: 'make test | tail -5' }],
      bypassHookTrust: false,
    });
    expect(run.exchanges[0]?.output, describeRun(run)).toContain('tests passed');
    expect(existsSync(join(installed.project, 'made-test.txt'))).toBe(true);
  });

  test('doctor, with codex on PATH, says the hook is untrusted and exits 1', async () => {
    const doctor = await installed.cli(['doctor', '--host', 'codex', '--user'], withCodex());
    expect(doctor.exitCode, doctor.stdout).toBe(1);
    expect(doctor.stdout).toMatch(/^FAIL Codex has the hook as untrusted, so it skips it without a word/m);
  });

  test('once trusted as /hooks would, codex runs it: the deny reaches the model, and doctor passes', async () => {
    const trusted = await trustCodexHooks(installed.home, installed.project);
    expect(trusted.map((hook) => hook.command)).toEqual([
      `node ${join(installed.home, '.codex', 'hooks', 'exit-status-guard.cjs')} --host codex`,
    ]);
    const run = await runHost('codex', {
      cwd: installed.project,
      home: installed.home,
      script: [{ shell: 'make test | tail -5' }],
      bypassHookTrust: false,
    });
    expect(run.exchanges[0]?.output, describeRun(run)).toContain('exit-status-guard: `make test`');
    const doctor = await installed.cli(['doctor', '--host', 'codex', '--user'], withCodex());
    expect(doctor.stdout).toMatch(/^ok {3}Codex trusts the hook \(trusted, /m);
    expect(doctor.exitCode, doctor.stdout).toBe(0);
  });

  test('a second install of the same hook keeps its trust (the hash is the hook’s, not the file’s)', async () => {
    const again = await installed.cli(['install', '--host', 'codex', '--user']);
    expect(again.stdout).toContain('already installed');
    const [hook] = await listCodexHooks(installed.home, installed.project);
    expect(hook?.trustStatus).toBe('trusted');
  });
});
