import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bashPayload, claudeCode, type HookInput, judgeInput, readPayload } from '@kit/gate-approval';
import * as gitWriteGate from '@kit/git-write-gate';
import {
  executable,
  fillTemplate,
  hookEnv,
  runHookFile,
  startJudge,
  tempDir,
  tempRepo,
  tempTree,
} from '@kit/test-kit';
import { describe, expect, test } from 'vitest';
import { cases as exitStatusRows } from '../../packages/exit-status-guard/test/cases.ts';
import { cases as gitWriteRows } from '../../packages/git-write-gate/test/cases.ts';
import { realWorld } from '../../packages/git-write-gate/test/fake-context.ts';
import { escapeQuietMs } from '../../packages/roseline-gate/src/escape.ts';
import { cases as roselineRows } from '../../packages/roseline-gate/test/cases.ts';
import { readCommands } from '../src/commands.ts';
import { distOf, type JudgedGuard, judgedGuards } from '../src/judge-memory.ts';

// The MCP judge answers every call with exactly what the guard's command hook prints for it. Each
// session below is one judge process (spawned, spoken to over stdio as Claude Code speaks to it,
// every guard's judge module loaded) and the guard's command hook (`node dist/hook.cjs`, the
// payload on stdin, KIT_HOOKS_SERVER=off), given the same calls in the same order, the same
// environment and folder, each side its own temp folder (roseline-gate's escape keeps state there).
// The judge gets each call through the handler's shipped `input` template, filled as the host fills
// it; the hook gets the host's whole payload. A refusal (exit 2, the reason on stderr) is the
// judge's deny carrying the reason (an isError answer's text never reaches the model).
const guards = judgedGuards;
type Guard = JudgedGuard;
const judgeModules = guards.map((guard) => distOf(guard, 'judge.cjs'));
const server = distOf('exit-status-guard', 'mcp.cjs');
const silentSample = 20;
// Each compared call starts a hook process: a run of the suite compares an even spread of at most
// this many calls per session (KIT_MCP_JUDGE_ALL=1 compares every one, for a run with time to spare).
const callsPerSession = process.env.KIT_MCP_JUDGE_ALL === '1' ? Number.POSITIVE_INFINITY : 160;
const spread = <T>(items: readonly T[]): T[] => {
  if (items.length <= callsPerSession) return [...items];
  const step = items.length / callsPerSession;
  return Array.from({ length: callsPerSession }, (_x, i) => items[Math.floor(i * step)] as T);
};
// Every row of a guard's table, each by its first and its last spelling: both directions of every rule.
const ends = <T>(items: readonly T[]): T[] =>
  items.length > 1 ? [items[0] as T, items.at(-1) as T] : [...items];

interface Session {
  guard: Guard;
  project: string;
  env?: Record<string, string>;
  calls: HookInput[];
  /**
   * A pause before each call, so that each side's calls are at least this far apart whatever the
   * machine's load: roseline-gate's escape turns on a quiet second since the identical Read's
   * denial, timed by when each side took the call (the hook's process start, the judge's receipt).
   */
  pauseMs?: number;
}

/** What a command hook's run is as the judge's answer. */
function expectedAnswer(run: { exitCode: number | null; stdout: string; stderr: string }) {
  return run.exitCode === 2
    ? { text: claudeCode.encode({ kind: 'deny', reason: run.stderr.trimEnd() }).stdout, isError: false }
    : { text: run.stdout, isError: false };
}

async function compare(session: Session): Promise<{ differences: string[]; answered: number }> {
  const envOf = (temp: string) =>
    hookEnv({ TMPDIR: temp, TMP: temp, TEMP: temp, CLAUDE_PROJECT_DIR: session.project, ...session.env });
  const client = await startJudge(server, judgeModules, {
    env: envOf(tempDir('mcp-side')),
    cwd: session.project,
  });
  const hookSide = envOf(tempDir('hook-side'));
  const differences: string[] = [];
  let answered = 0;
  try {
    for (const call of session.calls) {
      if (session.pauseMs !== undefined) await new Promise((resolve) => setTimeout(resolve, session.pauseMs));
      const run = runHookFile(distOf(session.guard, 'hook.cjs'), call, {
        env: hookSide,
        cwd: session.project,
      });
      const answer = await client.judge(fillTemplate(judgeInput(session.guard), call));
      const want = expectedAnswer(run);
      if (run.exitCode !== 0 && run.exitCode !== 2)
        differences.push(`hook exit ${run.exitCode}: ${JSON.stringify(call)}`);
      if (want.text !== '') answered++;
      if (answer.text !== want.text || answer.isError !== want.isError) {
        differences.push(
          `${JSON.stringify(call)}\n  hook: ${JSON.stringify(want)}\n  mcp:  ${JSON.stringify(answer)}`,
        );
      }
    }
  } finally {
    await client.close();
  }
  return { differences, answered };
}

// Alternate calls come from a sub-agent and carry the other fields a payload may have.
function withMarkers(payload: HookInput, index: number): HookInput {
  if (index % 2 === 0) return { ...payload, permission_mode: 'default', tool_use_id: `toolu_${index}` };
  return {
    ...payload,
    agent_id: `agent-${index}`,
    agent_type: 'general-purpose',
    transcript_path: '/tmp/transcript.jsonl',
    permission_mode: 'acceptEdits',
  };
}

// The ids whose recorded verdict in the situation is not silence, then every k-th of the others.
function corpusCommands(situation: string) {
  const judged = new Set<string>();
  for (const line of readFileSync(new URL('../verdicts.jsonl', import.meta.url), 'utf8')
    .trimEnd()
    .split('\n')) {
    const row = JSON.parse(line) as { id: string; verdicts: Record<string, { verdict: string }> };
    const verdict = row.verdicts[situation]?.verdict;
    if (verdict !== undefined && verdict !== 'none') judged.add(row.id);
  }
  const all = readCommands();
  const silent = all.filter((command) => !judged.has(command.id));
  const step = Math.floor(silent.length / silentSample);
  return [...all.filter((command) => judged.has(command.id)), ...silent.filter((_c, i) => i % step === 0)];
}

function corpusSession(
  guard: Guard,
  situation: string,
  project: string,
  env?: Record<string, string>,
): Session {
  const calls = spread(corpusCommands(situation)).map((command, index) =>
    withMarkers(
      bashPayload(command.command, {
        cwd: project,
        sessionId: 'corpus',
        ...(command.run_in_background ? { runInBackground: true } : {}),
      }),
      index,
    ),
  );
  return { guard, project, calls, ...(env ? { env } : {}) };
}

const managedRepo = () =>
  tempRepo({ [gitWriteGate.profileRelativePath]: '---\nname: repo-profile\n---\n' }, 'kit-mcp-gwg');

// Payloads no guard can judge, and fields of the wrong type: each side must say the same nothing.
const oddPayloads = (cwd: string): HookInput[] => [
  { ...bashPayload('x', { cwd }), tool_input: { command: 42 } },
  { ...bashPayload('x', { cwd }), tool_input: {} },
  { ...bashPayload('git push | tail -3', { cwd }), tool_name: 'BashOutput' },
  { cwd, tool_name: 'Bash', hook_event_name: 'PreToolUse' },
  bashPayload('git commit -m "$(cat <<EOF\nunclosed', { cwd }),
  bashPayload('make check | | tail', { cwd }),
];

// Hundreds of node starts per test, on a shared machine: a generous bound, never a measure.
const slow = { timeout: 1_800_000 };

describe('the MCP judge answers real commands as the command hook does', slow, () => {
  test.for([
    { name: 'exit-status-guard', situation: 'exit-status-guard', strict: false },
    { name: 'git-write-gate', situation: 'git-write-gate managed', strict: false },
    { name: 'git-write-gate', situation: 'git-write-gate managed strict', strict: true },
  ] as const)('$situation', async ({ name, situation, strict }) => {
    const project = name === 'git-write-gate' ? managedRepo() : tempDir('kit-mcp-esg');
    const session = corpusSession(
      name,
      situation,
      project,
      strict ? { TAGOUT_HOOKS_STRICT: '1' } : undefined,
    );
    session.calls.push(...oddPayloads(project));
    const { differences, answered } = await compare(session);
    expect(differences).toEqual([]);
    expect(answered).toBeGreaterThan(50); // positive control: the denials were compared, not just silence
  });
});

describe("the MCP judge answers every guard table's rows as the command hook does", slow, () => {
  test('exit-status-guard', async () => {
    const project = tempDir('kit-mcp-esg-rows');
    const calls = exitStatusRows.flatMap((row) =>
      ends(row.commands).map((command) =>
        bashPayload(command, { cwd: project, runInBackground: row.background }),
      ),
    );
    const { differences, answered } = await compare({
      guard: 'exit-status-guard',
      project,
      calls: spread(calls).map(withMarkers),
    });
    expect(differences).toEqual([]);
    expect(answered).toBeGreaterThan(40);
  });

  test.for([false, true])('git-write-gate on real repositories (strict: %s)', async (strict) => {
    const root = tempDir('kit-mcp-gwg-rows');
    const moved = realWorld(root);
    const calls = gitWriteRows.flatMap((row) =>
      ends(row.commands).map((command) =>
        bashPayload(moved(command), { cwd: moved(row.cwd ?? '/repos/managed') }),
      ),
    );
    const env = strict ? { TAGOUT_HOOKS_STRICT: '1' } : undefined;
    const session: Session = {
      guard: 'git-write-gate',
      project: root,
      calls: spread(calls).map(withMarkers),
      ...(env ? { env } : {}),
    };
    const { differences, answered } = await compare(session);
    expect(differences).toEqual([]);
    expect(answered).toBeGreaterThan(40);
  });

  test('roseline-gate', async () => {
    const stub = tempTree({ dnx: executable('#!/bin/sh\nexit 0\n') }, 'kit-mcp-bin');
    const empty = tempDir('kit-mcp-empty-bin');
    // One session per environment the rows ask for (the launcher on PATH or not, ROSELINE_GATE).
    const sessions = new Map<string, Session>();
    for (const row of roselineRows) {
      const env = { PATH: row.launcher === false ? empty : stub, ...row.env };
      const root = tempTree(row.tree, 'kit-mcp-rg');
      const cwd = join(root, row.cwd ?? '');
      const calls = row.files.map((file, index) =>
        withMarkers(readPayload(join(root, file), { cwd, sessionId: 's1' }), index),
      );
      const key = JSON.stringify(env);
      const session: Session = sessions.get(key) ?? {
        guard: 'roseline-gate',
        project: root,
        env,
        calls: [],
        pauseMs: escapeQuietMs + 100,
      };
      // Each Read twice: the second meets the escape the first may have left, a quiet second later
      // on both sides (without the pause, a loaded machine made one side's gap cross it and not the other's).
      session.calls.push(...calls, ...calls);
      sessions.set(key, session);
    }
    const differences: string[] = [];
    let answered = 0;
    for (const session of sessions.values()) {
      const result = await compare(session);
      differences.push(...result.differences);
      answered += result.answered;
    }
    expect(differences).toEqual([]);
    expect(answered).toBeGreaterThan(10);
  });
});
