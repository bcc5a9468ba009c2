import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { runClaude } from '../src/claude.ts';
import { hookSettings, writeFixtureHook } from '../src/hooks.ts';
import {
  deniedIds,
  describeRun,
  findTranscripts,
  hookNoVerdictEvents,
  onlyToolResult,
} from '../src/scenario.ts';
import { writeTree } from '@kit/test-kit';
import { removeScratch, scratchDir, scratchRepo } from '../src/scratch.ts';

// The harness proven on the suite's own fixture hooks, before any guard is involved: if these fail,
// a guard scenario's failure says nothing about the guard.

afterAll(removeScratch);

const touch = { name: 'Bash', input: { command: 'touch ran.txt', description: 'create a file' } };

async function scratch() {
  return { home: await scratchDir('harness-home'), project: await scratchRepo('harness') };
}

describe('the stand-in and the real CLI', () => {
  test('with no hook, the call runs and the model gets its result (positive control)', async () => {
    const { home, project } = await scratch();
    const run = await runClaude({ cwd: project, home, script: [touch] });
    const result = onlyToolResult(run);
    expect(result.isError, describeRun(run)).toBe(false);
    expect(existsSync(join(project, 'ran.txt'))).toBe(true);
    expect(run.permissionDenials).toEqual([]);
    expect(run.result?.subtype).toBe('success');
    // The stand-in answered the call, then the result with text.
    expect(run.api.requests.filter((r) => r.answer !== 'other').map((r) => r.answer)).toEqual([
      'tool_use',
      'text',
    ]);
  });

  test('a deny from a --settings hook reaches the model and permission_denials; the call does not run', async () => {
    const { home, project } = await scratch();
    const hook = await writeFixtureHook(home, 'deny');
    const run = await runClaude({
      cwd: project,
      home,
      script: [touch],
      settings: hookSettings('Bash', hook),
    });
    const result = onlyToolResult(run);
    expect(result).toMatchObject({
      isError: true,
      text: 'PreToolUse:Bash hook error: e2e-fixture: denied by the fixture hook',
    });
    expect(deniedIds(run)).toEqual([result.toolUseId]);
    expect(existsSync(join(project, 'ran.txt'))).toBe(false);
  });

  test("a hook in the project's own .claude/settings.json (where install --project writes) runs in print mode", async () => {
    const { home, project } = await scratch();
    const hook = await writeFixtureHook(home, 'deny');
    writeTree(project, { '.claude/settings.json': JSON.stringify(hookSettings('Bash', hook)) });
    const run = await runClaude({ cwd: project, home, script: [touch] });
    expect(onlyToolResult(run).isError, describeRun(run)).toBe(true);
    expect(existsSync(join(project, 'ran.txt'))).toBe(false);
  });

  test('the CLI writes the session transcript under HOME, holding the call and the denial', async () => {
    const { home, project } = await scratch();
    const hook = await writeFixtureHook(home, 'deny');
    const run = await runClaude({
      cwd: project,
      home,
      script: [touch],
      settings: hookSettings('Bash', hook),
    });
    const transcripts = await findTranscripts(home);
    expect(transcripts.map((file) => file.endsWith(`${run.sessionId}.jsonl`))).toEqual([true]);
    const text = await readFile(transcripts[0] as string, 'utf8');
    expect(text).toContain('e2e-fixture: denied by the fixture hook');
    expect(text).toContain('"touch ran.txt"');
  });
});

// What the host does with each way a hook can end, recorded: the kit's fail-open and strict designs
// rest on these rows (the output table of Claude Code's hooks reference, as 2.1.328 behaves).
describe('the host on each way a hook ends', () => {
  test('exit 2: blocked, the stderr reaches the model, listed as a denial', async () => {
    const { home, project } = await scratch();
    const hook = await writeFixtureHook(home, 'refuse');
    const run = await runClaude({
      cwd: project,
      home,
      script: [touch],
      settings: hookSettings('Bash', hook),
    });
    const result = onlyToolResult(run);
    expect(result.isError).toBe(true);
    expect(result.text).toBe(
      `PreToolUse:Bash hook error: [node ${hook}]: e2e-fixture: refused with exit 2\n`,
    );
    expect(deniedIds(run)).toEqual([result.toolUseId]);
    expect(existsSync(join(project, 'ran.txt'))).toBe(false);
  });

  test('a crash (exit 1): the call proceeds', async () => {
    const { home, project } = await scratch();
    const hook = await writeFixtureHook(home, 'crash');
    const run = await runClaude({
      cwd: project,
      home,
      script: [touch],
      settings: hookSettings('Bash', hook),
    });
    expect(onlyToolResult(run).isError, describeRun(run)).toBe(false);
    expect(existsSync(join(project, 'ran.txt'))).toBe(true);
  });

  test('a crash with onFailure "block": blocked, with node\'s stack in the reason', async () => {
    const { home, project } = await scratch();
    const hook = await writeFixtureHook(home, 'crash');
    const settings = hookSettings('Bash', hook, { onFailure: 'block' });
    const run = await runClaude({ cwd: project, home, script: [touch], settings });
    const result = onlyToolResult(run);
    expect(result.isError).toBe(true);
    expect(result.text.split('\n')[0]).toBe(
      `PreToolUse:Bash hook error: [node ${hook}]: failed; blocking because onFailure is "block"`,
    );
    expect(result.text).toContain('e2e-fixture: crashed');
    expect(deniedIds(run)).toEqual([result.toolUseId]);
    expect(existsSync(join(project, 'ran.txt'))).toBe(false);
  });

  test('past its timeout: killed, the host warns (hook_no_verdict) and the call proceeds', async () => {
    const { home, project } = await scratch();
    const hook = await writeFixtureHook(home, 'sleeper');
    const run = await runClaude({
      cwd: project,
      home,
      script: [touch],
      settings: hookSettings('Bash', hook, { timeout: 1 }),
    });
    const result = onlyToolResult(run);
    expect(result.isError, describeRun(run)).toBe(false);
    expect(existsSync(join(project, 'ran.txt'))).toBe(true);
    expect(hookNoVerdictEvents(run)).toMatchObject([
      {
        content: "A hook didn't answer in time, so it didn't check this action.",
        hook_no_verdict: { timed_out: true },
      },
    ]);
  });

  test('past its timeout with onFailure "block": blocked, and the model is told why', async () => {
    const { home, project } = await scratch();
    const hook = await writeFixtureHook(home, 'sleeper');
    const settings = hookSettings('Bash', hook, { timeout: 1, onFailure: 'block' });
    const run = await runClaude({ cwd: project, home, script: [touch], settings });
    const result = onlyToolResult(run);
    expect(result.isError).toBe(true);
    expect(result.text).toBe(
      `PreToolUse:Bash hook error: [node ${hook}]: timed out; blocking because onFailure is "block"`,
    );
    expect(deniedIds(run)).toEqual([result.toolUseId]);
    expect(existsSync(join(project, 'ran.txt'))).toBe(false);
  });
});
