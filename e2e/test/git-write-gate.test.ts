import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { type ClaudeRun, runClaude } from '../src/claude.ts';
import type { ToolCall } from '../src/messages-api.ts';
import { commitCount, managedRepoTree, unparseableCommit as unparseable } from '../src/guard-cases.ts';
import { deniedIds, describeRun, type GuardedProject, installInScratchProject } from '../src/scenario.ts';
import { git } from '@kit/test-kit';
import { removeScratch, scratchDir } from '../src/scratch.ts';

const source = inject('kitSource');
afterAll(removeScratch);

const commit: ToolCall = {
  name: 'Bash',
  input: { command: 'git commit --allow-empty -m "e2e: a commit"', description: 'commit' },
};
const status: ToolCall = { name: 'Bash', input: { command: 'git status', description: 'show the status' } };
// The per-command escape the reason offers, on the main thread.
const escaped: ToolCall = {
  name: 'Bash',
  input: { command: `GIT_GATE=off ${commit.input.command}`, description: 'commit, once, past the gate' },
};

function commitSubjects(project: string): string[] {
  return git(project, 'log', '--format=%s').trim().split('\n');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('git-write-gate, installed with npx from the registry, in a managed repository', () => {
  let installed: GuardedProject;
  let session: ClaudeRun; // default mode: git status, git commit, the escaped commit, the unparseable command
  let strictSession: ClaudeRun; // TAGOUT_HOOKS_STRICT=1: the unparseable command
  beforeAll(async () => {
    installed = await installInScratchProject(source, 'git-write-gate', { tree: managedRepoTree });
    session = await runClaude({
      cwd: installed.project,
      home: await scratchDir('git-write-gate-session'),
      script: [status, commit, escaped, unparseable],
    });
    // A switch must be in the environment the CLI starts with: an export inside a Bash call never reaches a hook.
    strictSession = await runClaude({
      cwd: installed.project,
      home: await scratchDir('git-write-gate-strict'),
      script: [unparseable],
      env: { TAGOUT_HOOKS_STRICT: '1' },
    });
  });

  test('lets `git status` run', () => {
    const [result] = session.toolResults;
    expect(result?.input.command, describeRun(session)).toBe('git status');
    expect(result?.isError).toBe(false);
    expect(result?.text).toContain('On branch main');
  });

  test('denies `git commit`: the reason reaches the model, the run lists the denial, no commit is made', () => {
    const [, result] = session.toolResults;
    expect(result?.input.command, describeRun(session)).toBe(commit.input.command);
    expect(result?.isError).toBe(true);
    expect(result?.text).toMatch(/^PreToolUse:Bash hook error: git-write-gate: /);
    expect(result?.text).toContain('repo-profile');
    expect(deniedIds(session)).toEqual([result?.toolUseId]);
    // One commit beside the initial one, and it is the escaped call's (below): the denied one never landed.
    expect(commitSubjects(installed.project)).toEqual(['e2e: a commit', 'initial']);
  });

  test('the escape the reason offers (`GIT_GATE=off` before the command) lets that one commit through', () => {
    const [, denied, result] = session.toolResults;
    expect(denied?.text, describeRun(session)).toContain(escaped.input.command as string);
    expect(result?.input.command).toBe(escaped.input.command);
    expect(result?.isError).toBe(false);
    expect(result?.text).toContain('e2e: a commit');
  });

  test('in default mode the unparseable command gets no opinion (bash itself rejects it)', () => {
    const [, , , result] = session.toolResults;
    expect(result?.input.command, describeRun(session)).toBe(unparseable.input.command);
    expect(result?.text).not.toContain('PreToolUse');
    expect(result?.text).toContain('unexpected EOF');
  });

  test('strict mode (TAGOUT_HOOKS_STRICT=1) refuses the unparseable command: exit 2 reaches the model as a block', () => {
    const [result] = strictSession.toolResults;
    expect(result?.isError, describeRun(strictSession)).toBe(true);
    // Exit 2 is reported with the handler's command and args in brackets as written (the
    // placeholder unexpanded), then the hook's stderr.
    expect(result?.text).toMatch(
      new RegExp(
        `^PreToolUse:Bash hook error: \\[node ${escapeRegExp(installed.handlerArg)}\\]: git-write-gate: cannot judge`,
      ),
    );
    expect(result?.text).toContain('(strict mode)');
    expect(deniedIds(strictSession)).toEqual([result?.toolUseId]);
    expect(commitSubjects(installed.project)).toEqual(['e2e: a commit', 'initial']);
  });
});

describe('git-write-gate in a repository it does not manage', () => {
  test('lets the same `git commit` through (control: the commit lands)', async () => {
    const installed = await installInScratchProject(source, 'git-write-gate');
    const run = await runClaude({ cwd: installed.project, home: installed.home, script: [commit] });
    expect(
      run.toolResults.map((result) => result.isError),
      describeRun(run),
    ).toEqual([false]);
    expect(run.permissionDenials).toEqual([]);
    expect(commitCount(installed.project)).toBe(2);
  });
});
