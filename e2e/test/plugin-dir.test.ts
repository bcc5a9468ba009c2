import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, test } from 'vitest';
import { runClaude } from '../src/claude.ts';
import { guardCases } from '../src/guard-cases.ts';
import { unpackedPlugin } from '../src/plugin.ts';
import { deniedIds, describeRun } from '../src/scenario.ts';
import { removeScratch, scratchDir, scratchRepo } from '../src/scratch.ts';

const source = inject('kitSource');
afterAll(removeScratch);

// The cheap second proof of the plugin: `claude -p --plugin-dir <judge> --plugin-dir <guard>` loads
// exit-status-guard's packed tarball and the kit-judge plugin's (@kit/gate-approval's), unpacked side
// by side, for one session, with nothing installed and nothing in settings: its deny call is denied
// by the plugin's mcp_tool handler, answered by the judge, which finds the guard's judge module in
// the folder beside its own. With that module gone, the same call runs (the judge answers isError,
// which a fail-open handler lets through), so the deny came from it. One guard is enough here: the
// marketplace scenarios run all three from the same tarballs.
const guardCase = guardCases.find((c) => c.guard === 'exit-status-guard') as (typeof guardCases)[number];
type PluginState = 'as packed' | 'the judge module removed';
const states: PluginState[] = ['as packed', 'the judge module removed'];

describe('exit-status-guard, loaded with --plugin-dir from its packed tarball', () => {
  test.concurrent.for(states)('%s', async (state) => {
    const { guardDir, judgeDir } = await unpackedPlugin(source, guardCase.guard);
    if (state === 'the judge module removed') await rm(join(guardDir, 'dist', 'judge.cjs'));
    const project = await scratchRepo(`${guardCase.guard}-plugin-dir`, guardCase.tree);
    const run = await runClaude({
      cwd: project,
      home: await scratchDir(`${guardCase.guard}-plugin-dir-home`),
      script: [guardCase.call(project)],
      env: await guardCase.env(),
      args: ['--plugin-dir', judgeDir, '--plugin-dir', guardDir],
    });
    const [result] = run.toolResults;
    expect(run.toolResults, describeRun(run)).toHaveLength(1);
    if (state === 'as packed') {
      expect(result?.text.startsWith(guardCase.opener), describeRun(run)).toBe(true);
      expect(deniedIds(run)).toEqual([result?.toolUseId]);
      expect(guardCase.ran(project, result?.text ?? '')).toBe(false);
    } else {
      expect(result?.text, describeRun(run)).not.toContain(`${guardCase.guard}: `);
      expect(run.permissionDenials).toEqual([]);
      expect(guardCase.ran(project, result?.text ?? ''), describeRun(run)).toBe(true);
    }
  });
});
