import { existsSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, test } from 'vitest';
import { runClaude } from '../src/claude.ts';
import { runGuardCli } from '../src/kit.ts';
import { guardCases } from '../src/guard-cases.ts';
import { fixtureHooks } from '../src/hooks.ts';
import {
  deniedIds,
  describeRun,
  hookNoVerdictEvents,
  installInScratchProject,
  readHandlers,
  setHandlerTimeout,
} from '../src/scenario.ts';
import { removeScratch, scratchDir, scratchRepo } from '../src/scratch.ts';

const source = inject('kitSource');
afterAll(removeScratch);

// A hook killed at its timeout cannot say anything, so strict mode has to live in the host:
// `install --strict` writes "onFailure": "block". The installed bundle is swapped for one that
// outlives any timeout, and the timeout is cut to 1 s to keep the suite fast.
interface Row {
  install: 'install --strict' | 'install (default)';
  hook: 'outlives its timeout' | 'is removed';
  blocked: string | null; // what the host tells the model after `[node <bundle>]: `, or null: the call runs
}
const rows: Row[] = [
  {
    install: 'install --strict',
    hook: 'outlives its timeout',
    blocked: 'timed out; blocking because onFailure is "block"',
  },
  { install: 'install (default)', hook: 'outlives its timeout', blocked: null },
  // The other side of strict: a bundle that cannot run blocks every call it matches, not just this one.
  // (Default installs with a removed bundle fail open: installed-bundle.test.ts.)
  {
    install: 'install --strict',
    hook: 'is removed',
    blocked: 'failed; blocking because onFailure is "block"',
  },
];

// Strict mode is git-write-gate's alone: the other guards fail open on every doubt, so their
// installers refuse --strict rather than write a handler that would block on a crash.
const hasStrictMode = (guard: string): boolean => guard === 'git-write-gate';

describe.for(guardCases)('$guard', (guardCase) => {
  const named = rows
    .filter((row) => row.install !== 'install --strict' || hasStrictMode(guardCase.guard))
    .map((row) => [`${row.install}, and a hook that ${row.hook}`, row] as const);
  test.skipIf(hasStrictMode(guardCase.guard))('install --strict is refused and writes nothing', async () => {
    const home = await scratchDir(`${guardCase.guard}-strict-home`);
    const project = await scratchRepo(`${guardCase.guard}-strict`, guardCase.tree ?? {});
    const result = await runGuardCli(source, guardCase.guard, ['install', '--project', '--strict'], {
      cwd: project,
      home,
    });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('has no strict mode');
    expect(existsSync(join(project, '.claude', 'settings.json'))).toBe(false);
  });
  test.concurrent.for(named)('%s', async ([, row]) => {
    const strict = row.install === 'install --strict';
    const installed = await installInScratchProject(source, guardCase.guard, {
      tree: guardCase.tree,
      strict,
    });
    const [handler] = await readHandlers(installed.settingsFile);
    expect(handler?.onFailure).toBe(strict ? 'block' : undefined);
    if (row.hook === 'is removed') {
      await rm(installed.bundle);
    } else {
      await writeFile(installed.bundle, fixtureHooks.sleeper);
      await setHandlerTimeout(installed.settingsFile, 1);
    }

    const run = await runClaude({
      cwd: installed.project,
      home: installed.home,
      script: [guardCase.call(installed.project)],
      env: await guardCase.env(),
    });
    const [result] = run.toolResults;
    expect(run.toolResults, describeRun(run)).toHaveLength(1);
    const tool = guardCase.call(installed.project).name;
    if (row.blocked !== null) {
      expect(result?.isError).toBe(true);
      // A failed start also carries node's stack after the first line. A strict install runs the
      // bundle with --strict (the strict switch: an exec-form handler has no env field).
      const command = `node ${installed.handlerArg}${strict ? ' --strict' : ''}`;
      expect(result?.text.split('\n')[0], describeRun(run)).toBe(
        `PreToolUse:${tool} hook error: [${command}]: ${row.blocked}`,
      );
      expect(deniedIds(run)).toEqual([result?.toolUseId]);
      expect(guardCase.ran(installed.project, result?.text ?? '')).toBe(false);
    } else {
      expect(result?.text, describeRun(run)).not.toContain('timed out');
      expect(run.permissionDenials).toEqual([]);
      expect(guardCase.ran(installed.project, result?.text ?? ''), describeRun(run)).toBe(true);
      expect(hookNoVerdictEvents(run)).toMatchObject([{ hook_no_verdict: { timed_out: true } }]);
    }
  });
});
