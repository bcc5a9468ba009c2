// The plugin route's monitor mode: each guard ships hooks/monitor.json, its hooks.json with
// `"monitor": true` and `"plugin": "<guard>-monitor"` in the judge handler's input (the marketplace's
// <guard>-monitor entry inlines it: Claude Code 2.1.332 reads no hooks file path in an entry). Each handler's input is filled as the host fills it and sent to the MCP
// judge the kit-judge plugin runs: through hooks.json the guard's deny call is denied (the control),
// through monitor.json it is answered with no opinion and a would-deny is in the audit trail.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fillTemplate, hookEnv, repoRoot, startJudge, tempDir } from '@kit/test-kit';
import { afterAll, describe, expect, test } from 'vitest';
import { guardCases } from '../src/guard-cases.ts';
import { removeScratch, scratchRepo } from '../src/scratch.ts';

afterAll(removeScratch);

const packageDir = (guard: string) => join(repoRoot, 'packages', guard);
const hooksOf = (guard: string, file: string) =>
  JSON.parse(readFileSync(join(packageDir(guard), 'hooks', file), 'utf8')).hooks;
const auditEvents = (state: string): string[] => {
  const audit = join(state, 'kit-hooks', 'audit.jsonl');
  if (!existsSync(audit)) return [];
  return readFileSync(audit, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line).event);
};

describe.each(guardCases)('$guard', (guardCase) => {
  test('monitor.json is hooks.json with "monitor": true and the monitor plugin in the judge input', () => {
    const plain = hooksOf(guardCase.guard, 'hooks.json');
    plain.PreToolUse[0].hooks[0].input.plugin = `${guardCase.guard}-monitor`;
    plain.PreToolUse[0].hooks[0].input.monitor = true;
    expect(hooksOf(guardCase.guard, 'monitor.json')).toEqual(plain);
  });

  test.for([
    ['hooks.json: denied (the control)', 'hooks.json', true],
    ['monitor.json: silent, recorded', 'monitor.json', false],
  ] as const)('%s', async ([, file, denies]) => {
    const project = await scratchRepo(`monitor-${guardCase.guard}`, guardCase.tree);
    const state = tempDir('plugin-monitor-state');
    const handler = hooksOf(guardCase.guard, file).PreToolUse[0].hooks[0];
    const call = guardCase.call(project);
    const payload = {
      session_id: 'plugin-monitor',
      hook_event_name: 'PreToolUse',
      tool_name: call.name,
      tool_input: call.input,
      cwd: project,
    };
    const env = hookEnv({ ...(await guardCase.env()), XDG_STATE_HOME: state, TMPDIR: tempDir('tmp') });
    const dist = join(packageDir(guardCase.guard), 'dist');
    const judge = await startJudge(join(dist, 'mcp.cjs'), [join(dist, 'judge.cjs')], { env, cwd: project });
    try {
      const answer = await judge.judge(fillTemplate(handler.input, payload));
      expect(answer.isError).toBe(false);
      if (denies) expect(JSON.parse(answer.text).hookSpecificOutput.permissionDecision).toBe('deny');
      else expect(answer.text).toBe('');
    } finally {
      await judge.close();
    }
    expect(auditEvents(state)).toEqual([denies ? 'deny' : 'would-deny']);
  });
});
