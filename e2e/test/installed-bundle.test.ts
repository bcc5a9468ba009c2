import { readFile, rm, writeFile } from 'node:fs/promises';
import { afterAll, describe, expect, inject, test } from 'vitest';
import { runClaude } from '../src/claude.ts';
import type { CommandResult } from '@kit/test-kit';
import { guardCases } from '../src/guard-cases.ts';
import { deniedIds, describeRun, type GuardedProject, installInScratchProject } from '../src/scenario.ts';
import { removeScratch } from '../src/scratch.ts';

const source = inject('kitSource');
afterAll(removeScratch);

// What the state of the installed bundle does, per guard, through the same call:
// - intact: `doctor --project` passes, and the call is denied (the control for the rows below);
// - broken (cut in half: what an interrupted copy leaves, a SyntaxError when node loads it) and
//   removed: node exits 1, which the host treats as no opinion, so the call runs: fail-open;
// - removed: `doctor --project` says so, on one FAIL line, and exits 1.
type BundleState = 'intact' | 'broken' | 'removed';
const states: BundleState[] = ['intact', 'broken', 'removed'];

async function putBundleInState(installed: GuardedProject, state: BundleState): Promise<void> {
  if (state === 'removed') await rm(installed.bundle);
  if (state === 'broken') {
    const bytes = await readFile(installed.bundle);
    await writeFile(installed.bundle, bytes.subarray(0, Math.floor(bytes.length / 2)));
  }
}

const shown = (result: CommandResult) => `exit ${result.exitCode}\n${result.stdout}\n${result.stderr}`;

describe.for(guardCases)('$guard', (guardCase) => {
  test.concurrent.for(states)('bundle %s', async (state) => {
    const installed = await installInScratchProject(source, guardCase.guard, { tree: guardCase.tree });
    await putBundleInState(installed, state);

    const doctor = await installed.cli(['doctor', '--project']);
    if (state === 'intact') {
      expect(doctor.exitCode, shown(doctor)).toBe(0);
      expect(doctor.stdout).toContain('positive control denied');
      expect(doctor.stdout).not.toMatch(/^FAIL/m);
    } else {
      expect(doctor.exitCode, shown(doctor)).toBe(1);
    }
    if (state === 'broken') {
      expect(doctor.stdout).toMatch(/^FAIL the positive control did not deny through the installed command/m);
    }
    if (state === 'removed') {
      expect(doctor.stdout.split('\n').filter((line) => line.startsWith('FAIL'))).toEqual([
        `FAIL the bundle ${installed.bundle} is missing: run \`${guardCase.guard} install --project\``,
      ]);
    }

    const run = await runClaude({
      cwd: installed.project,
      home: installed.home,
      script: [guardCase.call(installed.project)],
      env: await guardCase.env(),
    });
    const [result] = run.toolResults;
    expect(run.toolResults, describeRun(run)).toHaveLength(1);
    if (state === 'intact') {
      expect(result?.text.startsWith(guardCase.opener), describeRun(run)).toBe(true);
      expect(deniedIds(run)).toEqual([result?.toolUseId]);
      expect(guardCase.ran(installed.project, result?.text ?? '')).toBe(false);
    } else {
      expect(result?.text, describeRun(run)).not.toContain(guardCase.guard);
      expect(run.permissionDenials).toEqual([]);
      expect(guardCase.ran(installed.project, result?.text ?? ''), describeRun(run)).toBe(true);
    }
  });
});
