import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { commitCount, managedRepoTree } from '@kit/e2e/src/guard-cases.ts';
import { removeScratch } from '@kit/e2e/src/scratch.ts';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { describeRun, type Host, type HostRun, runHost } from '../src/host-cli.ts';
import { type HostProject, installForHost, pathWithoutNode, scopeOf } from '../src/scenario.ts';

// The rewrite exit-status-guard's reason suggests when the session has no scratchpad folder.
const suggestedRewrite =
  'mkdir -p tmp && make test > tmp/out.log 2>&1; echo "EXIT=$?"; tail -5 < tmp/out.log';
// `make test` adds a line to a file each time it runs: "it ran" (and how often) is a fact on disk.
const makefileTree = { Makefile: 'test:\n\techo ran >> made-test.txt\n\techo tests passed\n' };
const commit = 'git commit --allow-empty -m "e2e: a commit"';

function makeTestRuns(project: string): number {
  const file = join(project, 'made-test.txt');
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').length - 1 : 0;
}

/**
 * The scenarios every host must pass with the guards installed by `install --host <host>` from the
 * registry: exit-status-guard denies `make test | tail -5` (the reason reaches the model, make never
 * ran) and its rewrite runs; a silent command runs; git-write-gate denies a commit in a managed
 * repository and lets it land in a plain one; doctor passes; with the bundle removed the call runs.
 */
export function describeHostScenarios(host: Host): void {
  const source = inject('kitSource');
  process.env.KIT_E2E_COPILOT_CACHE = inject('copilotCache');
  afterAll(removeScratch);

  describe(`${host}: exit-status-guard, installed with install --host ${host} --${scopeOf[host]}`, () => {
    let installed: HostProject;
    let run: HostRun;
    beforeAll(async () => {
      installed = await installForHost(source, 'exit-status-guard', host, makefileTree);
      run = await runHost(host, {
        cwd: installed.project,
        home: installed.home,
        script: [{ shell: 'make test | tail -5' }, { shell: suggestedRewrite }, { shell: 'touch ran.txt' }],
      });
    });

    test('denies `make test | tail -5`: make never ran, and the reason reached the model', () => {
      const [piped] = run.exchanges;
      expect(piped?.command, describeRun(run)).toBe('make test | tail -5');
      expect(piped?.output).toContain('exit-status-guard: `make test`: its exit status is lost in a pipe');
      expect(piped?.output).toContain(suggestedRewrite);
      // make ran once in the session: for the rewrite below, never for the denied pipe.
      expect(makeTestRuns(installed.project)).toBe(1);
    });

    test('the rewrite the reason suggests runs as written and reports the status', () => {
      const [, rewrite] = run.exchanges;
      expect(rewrite?.command, describeRun(run)).toBe(suggestedRewrite);
      expect(rewrite?.output).toContain('EXIT=0');
      expect(rewrite?.output).toContain('tests passed');
    });

    test('a command it has no opinion on runs', () => {
      const [, , touch] = run.exchanges;
      expect(touch?.command, describeRun(run)).toBe('touch ran.txt');
      expect(existsSync(join(installed.project, 'ran.txt'))).toBe(true);
    });

    test(`doctor --host ${host} passes: the positive control is denied through the host's own wiring`, async () => {
      const doctor = await installed.cli(['doctor', '--host', host, `--${scopeOf[host]}`]);
      expect(doctor.stdout, doctor.stderr).toMatch(/^ok {3}positive control denied through `node /m);
      expect(doctor.exitCode, `${doctor.stdout}\n${doctor.stderr}`).toBe(0);
    });
  });

  describe(`${host}: git-write-gate, installed with install --host ${host} --${scopeOf[host]}`, () => {
    test('denies a commit in a managed repository: no commit lands, the reason reaches the model', async () => {
      const installed = await installForHost(source, 'git-write-gate', host, managedRepoTree);
      const run = await runHost(host, {
        cwd: installed.project,
        home: installed.home,
        script: [{ shell: commit }],
      });
      expect(run.exchanges[0]?.command, describeRun(run)).toBe(commit);
      expect(run.exchanges[0]?.output).toContain('git-write-gate: ');
      expect(run.exchanges[0]?.output).toContain('repo-profile');
      expect(commitCount(installed.project)).toBe(1);
    });

    test('lets the same commit land in a repository it does not manage', async () => {
      const installed = await installForHost(source, 'git-write-gate', host);
      const run = await runHost(host, {
        cwd: installed.project,
        home: installed.home,
        script: [{ shell: commit }],
      });
      expect(run.exchanges[0]?.output, describeRun(run)).not.toContain('git-write-gate');
      expect(commitCount(installed.project)).toBe(2);
    });
  });

  describe(`${host}: a broken installation fails open`, () => {
    test('the bundle removed: the denied command runs, and doctor names the missing bundle', async () => {
      const installed = await installForHost(source, 'exit-status-guard', host, makefileTree);
      rmSync(installed.bundle);
      const run = await runHost(host, {
        cwd: installed.project,
        home: installed.home,
        script: [{ shell: 'make test | tail -5' }],
      });
      expect(run.exchanges[0]?.output, describeRun(run)).toContain('tests passed');
      expect(makeTestRuns(installed.project)).toBe(1);
      const doctor = await installed.cli(['doctor', '--host', host, `--${scopeOf[host]}`]);
      expect(doctor.exitCode).toBe(1);
      expect(doctor.stdout).toContain(`FAIL the bundle ${installed.bundle} is missing`);
    });

    test('node not on the PATH the host gives its hooks: the denied command runs', async () => {
      const installed = await installForHost(source, 'exit-status-guard', host, makefileTree);
      const run = await runHost(host, {
        cwd: installed.project,
        home: installed.home,
        script: [{ shell: 'make test | tail -5' }],
        env: { PATH: await pathWithoutNode() },
      });
      expect(run.exchanges[0]?.output, describeRun(run)).toContain('tests passed');
      expect(makeTestRuns(installed.project)).toBe(1);
    });
  });
}
