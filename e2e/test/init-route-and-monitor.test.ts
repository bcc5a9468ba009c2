// git-write-gate's two user routes in the real CLI. `init`: after a deny, the scripted model takes
// the replacement route the reason names, and the commit lands on the agent's own branch with
// nothing written to the shared one. `install --monitor`: the same commit runs, the model is told
// nothing, and the would-deny is a line in the user's audit trail (through the verdict server).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { git } from '@kit/test-kit';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { type ClaudeRun, runClaude } from '../src/claude.ts';
import { commitCount, managedRepoTree } from '../src/guard-cases.ts';
import type { ToolCall } from '../src/messages-api.ts';
import { deniedIds, describeRun, type GuardedProject, installInScratchProject } from '../src/scenario.ts';
import { removeScratch, scratchDir } from '../src/scratch.ts';

const source = inject('kitSource');
afterAll(removeScratch);

const route = '.claude/skills/repo-profile/agent-branch.sh';
const commit: ToolCall = {
  name: 'Bash',
  input: { command: 'git commit -am "e2e: shared commit"', description: 'commit' },
};
// What a model does with the reason: the route it names, with a branch of its own and the path it changed.
const routeCommit: ToolCall = {
  name: 'Bash',
  input: {
    command: `${route} commit agent/e2e -m "e2e: on my branch" -- notes.txt`,
    description: 'commit on my branch',
  },
};

describe('git-write-gate init: the replacement route the deny names runs', () => {
  let installed: GuardedProject;
  let run: ClaudeRun;
  let mainBefore: string;
  beforeAll(async () => {
    installed = await installInScratchProject(source, 'git-write-gate', { tree: { 'notes.txt': 'old\n' } });
    const init = await installed.cli(['init']);
    expect(init.exitCode, init.stderr).toBe(0);
    git(installed.project, 'add', '.claude');
    git(installed.project, 'commit', '-qm', 'managed: git-write-gate init');
    mainBefore = git(installed.project, 'rev-parse', 'HEAD').trim();
    writeFileSync(join(installed.project, 'notes.txt'), 'new\n'); // the agent's change, uncommitted
    run = await runClaude({
      cwd: installed.project,
      home: await scratchDir('init-route-session'),
      script: [commit, routeCommit],
    });
  });

  test('the plain commit is denied and its reason names the route', () => {
    const [denied] = run.toolResults;
    expect(denied?.isError, describeRun(run)).toBe(true);
    expect(denied?.text).toMatch(/^PreToolUse:Bash hook error: git-write-gate: /);
    expect(denied?.text).toContain(`${route} commit`);
    expect(deniedIds(run)).toEqual([denied?.toolUseId]);
  });

  test('the route runs: the commit is on agent/e2e, the shared branch and work tree are as they were', () => {
    const [, routed] = run.toolResults;
    expect(routed?.isError, describeRun(run)).toBe(false);
    expect(routed?.text).toContain('committed');
    expect(git(installed.project, 'rev-parse', 'HEAD').trim()).toBe(mainBefore);
    expect(git(installed.project, 'log', '-1', '--format=%s', 'agent/e2e').trim()).toBe('e2e: on my branch');
    expect(git(installed.project, 'rev-parse', 'agent/e2e^').trim()).toBe(mainBefore);
    expect(git(installed.project, 'show', 'agent/e2e:notes.txt')).toBe('new\n');
    expect(git(installed.project, 'status', '--porcelain').trim()).toBe('M notes.txt');
  });
});

const emptyCommit: ToolCall = {
  name: 'Bash',
  input: { command: 'git commit --allow-empty -m "e2e: monitored"', description: 'commit' },
};

describe('git-write-gate install --monitor: judged, recorded, never told', () => {
  let installed: GuardedProject;
  let run: ClaudeRun;
  let home: string;
  beforeAll(async () => {
    installed = await installInScratchProject(source, 'git-write-gate', {
      tree: managedRepoTree,
      monitor: true,
    });
    home = await scratchDir('monitor-session');
    run = await runClaude({ cwd: installed.project, home, script: [emptyCommit] });
  });

  test('the commit the gate would deny runs, and the model gets no word of the gate', () => {
    const [result] = run.toolResults;
    expect(result?.isError, describeRun(run)).toBe(false);
    expect(result?.text).not.toContain('git-write-gate');
    expect(run.permissionDenials).toEqual([]);
    expect(commitCount(installed.project)).toBe(2);
  });

  test('the would-deny is in the audit trail of the session`s HOME, with its session and command', () => {
    const file = join(home, '.local', 'state', 'kit-hooks', 'audit.jsonl');
    expect(existsSync(file), describeRun(run)).toBe(true);
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines).toMatchObject([
      {
        guard: 'git-write-gate',
        event: 'would-deny',
        rule: 'commit',
        command: emptyCommit.input.command,
        ...(run.sessionId ? { session: run.sessionId } : {}),
      },
    ]);
  });
});
