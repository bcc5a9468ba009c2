import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, test } from 'vitest';
import { runClaude } from '../src/claude.ts';
import { guardCases } from '../src/guard-cases.ts';
import { unpackedPlugin } from '../src/plugin.ts';
import { deniedIds, describeRun } from '../src/scenario.ts';
import { removeScratch, scratchDir, scratchRepo } from '../src/scratch.ts';

const source = inject('kitSource');
afterAll(removeScratch);

// The cheap second proof of the plugin: `claude -p --plugin-dir <dir>` loads exit-status-guard's
// packed tarball, unpacked, for one session, with nothing installed and nothing in settings: its
// deny call is denied by the plugin's hooks/hooks.json. With that file's bundle path wrong, the same
// call runs (the hook cannot start, which the host treats as no opinion), so the deny came from
// it. One guard is enough here: the marketplace scenarios run all three from the same tarballs.
const guardCase = guardCases.find((c) => c.guard === 'exit-status-guard') as (typeof guardCases)[number];
type PluginState = 'as packed' | 'hooks.json names a missing bundle';
const states: PluginState[] = ['as packed', 'hooks.json names a missing bundle'];

describe('exit-status-guard, loaded with --plugin-dir from its packed tarball', () => {
  test.concurrent.for(states)('%s', async (state) => {
    const pluginDir = await unpackedPlugin(source, guardCase.guard);
    if (state === 'hooks.json names a missing bundle') {
      const file = join(pluginDir, 'hooks', 'hooks.json');
      const text = await readFile(file, 'utf8');
      expect(text).toContain('${CLAUDE_PLUGIN_ROOT}/dist/hook.cjs');
      await writeFile(file, text.replace('/dist/hook.cjs', '/dist/no-such-hook.cjs'));
    }
    const project = await scratchRepo(`${guardCase.guard}-plugin-dir`, guardCase.tree);
    const run = await runClaude({
      cwd: project,
      home: await scratchDir(`${guardCase.guard}-plugin-dir-home`),
      script: [guardCase.call(project)],
      env: await guardCase.env(),
      args: ['--plugin-dir', pluginDir],
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
