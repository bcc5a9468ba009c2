// The plugin route's monitor mode: each guard ships hooks/monitor.json, its hooks.json with
// `--monitor` after the bundle (a marketplace entry names it: "hooks": "./hooks/monitor.json").
// Run as the host runs a plugin handler, the guard's deny call: through hooks.json it is denied
// (the control), through monitor.json it is silent and a would-deny is in the audit trail.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hookEnv, repoRoot, runHookCommand, tempDir } from '@kit/test-kit';
import { afterAll, describe, expect, test } from 'vitest';
import { guardCases } from '../src/guard-cases.ts';
import { removeScratch, scratchRepo } from '../src/scratch.ts';

afterAll(removeScratch);

const packageDir = (guard: string) => join(repoRoot, 'packages', guard);
type Handler = { command: string; args: string[] };
const handlerOf = (guard: string, file: string): Handler => {
  const hooks = JSON.parse(readFileSync(join(packageDir(guard), 'hooks', file), 'utf8')).hooks;
  return hooks.PreToolUse[0].hooks[0];
};

describe.each(guardCases)('$guard', (guardCase) => {
  test('monitor.json is hooks.json with --monitor after the bundle', () => {
    const plain = JSON.parse(readFileSync(join(packageDir(guardCase.guard), 'hooks', 'hooks.json'), 'utf8'));
    const monitor = JSON.parse(
      readFileSync(join(packageDir(guardCase.guard), 'hooks', 'monitor.json'), 'utf8'),
    );
    plain.hooks.PreToolUse[0].hooks[0].args.push('--monitor');
    expect(monitor.hooks).toEqual(plain.hooks);
  });

  test.for([
    ['hooks.json: denied (the control)', 'hooks.json', true],
    ['monitor.json: silent, recorded', 'monitor.json', false],
  ] as const)('%s', async ([, file, denies]) => {
    const project = await scratchRepo(`monitor-${guardCase.guard}`, guardCase.tree);
    const state = tempDir('plugin-monitor-state');
    const handler = handlerOf(guardCase.guard, file);
    const args = handler.args.map((arg) => arg.replace('${CLAUDE_PLUGIN_ROOT}', packageDir(guardCase.guard)));
    const call = guardCase.call(project);
    const payload = {
      session_id: 'plugin-monitor',
      hook_event_name: 'PreToolUse',
      tool_name: call.name,
      tool_input: call.input,
      cwd: project,
    };
    const env = hookEnv({ ...(await guardCase.env()), XDG_STATE_HOME: state, TMPDIR: tempDir('tmp') });
    const result = runHookCommand({ command: 'node', args }, payload, { env, cwd: project });
    expect(result.exitCode).toBe(0);
    if (denies) expect(JSON.parse(result.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    else expect(result).toMatchObject({ stdout: '', stderr: '' });
    const audit = join(state, 'kit-hooks', 'audit.jsonl');
    const events = existsSync(audit)
      ? readFileSync(audit, 'utf8')
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l).event)
      : [];
    expect(events).toEqual([denies ? 'deny' : 'would-deny']);
  });
});
