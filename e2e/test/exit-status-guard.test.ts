import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { type ClaudeRun, runClaude } from '../src/claude.ts';
import { guardCases } from '../src/guard-cases.ts';
import { deniedIds, describeRun, type GuardedProject, installInScratchProject } from '../src/scenario.ts';
import { removeScratch } from '../src/scratch.ts';

const source = inject('kitSource');
afterAll(removeScratch);

const { tree } = guardCases.find((c) => c.guard === 'exit-status-guard') as (typeof guardCases)[number];
// The rewrite the reason suggests when the session has no scratchpad folder (print mode makes none).
const suggestedRewrite =
  'mkdir -p tmp && make test > tmp/out.log 2>&1; echo "EXIT=$?"; tail -5 < tmp/out.log';
const makeTestRuns = (project: string) =>
  existsSync(join(project, 'made-test.txt'))
    ? readFileSync(join(project, 'made-test.txt'), 'utf8').split('\n').length - 1
    : 0;

// One session, as a user would have it: the model pipes the tests into tail (denied), runs the
// rewrite the reason gave it, then does something the guard has no opinion on. Each test below reads
// one fact of that session.
describe('exit-status-guard, installed with npx from the registry, in the real CLI', () => {
  let installed: GuardedProject;
  let run: ClaudeRun;
  beforeAll(async () => {
    installed = await installInScratchProject(source, 'exit-status-guard', { tree });
    run = await runClaude({
      cwd: installed.project,
      home: installed.home,
      script: [
        { name: 'Bash', input: { command: 'make test | tail -5', description: 'run the tests' } },
        { name: 'Bash', input: { command: suggestedRewrite, description: 'run the tests, keep the status' } },
        { name: 'Bash', input: { command: 'touch ran.txt', description: 'create a file' } },
      ],
    });
  });

  test('denies `make test | tail -5`: the reason reaches the model, the run lists the denial, make never ran', () => {
    const [piped] = run.toolResults;
    expect(piped?.input.command, describeRun(run)).toBe('make test | tail -5');
    expect(piped?.isError).toBe(true);
    expect(piped?.text).toMatch(/^PreToolUse:Bash hook error: exit-status-guard: `make test`/);
    expect(deniedIds(run)).toEqual([piped?.toolUseId]);
    // make ran once in the session: for the rewrite below, never for the denied pipe.
    expect(makeTestRuns(installed.project)).toBe(1);
  });

  test('the rewrite the reason suggests runs as written, silently, and reports the status', () => {
    const [piped, rewrite] = run.toolResults;
    expect(piped?.text, describeRun(run)).toContain(suggestedRewrite);
    expect(rewrite?.input.command).toBe(suggestedRewrite);
    expect(rewrite?.isError).toBe(false);
    expect(rewrite?.text).toContain('EXIT=0');
    expect(rewrite?.text).toContain('tests passed');
  });

  test('lets `touch ran.txt` run', () => {
    const [, , touch] = run.toolResults;
    expect(touch?.input.command, describeRun(run)).toBe('touch ran.txt');
    expect(touch?.isError).toBe(false);
    expect(existsSync(join(installed.project, 'ran.txt'))).toBe(true);
  });

  test('friction-report over the transcript the CLI wrote counts the denial by rule and gate', async () => {
    const transcripts = join(installed.home, '.claude', 'projects');
    const report = await installed.cli([
      'friction-report',
      '--transcripts',
      transcripts,
      '--since',
      'all',
      '--json',
    ]);
    expect(report.exitCode, `${report.stdout}\n${report.stderr}`).toBe(0);
    expect(JSON.parse(report.stdout), report.stdout).toMatchObject({
      transcripts: 1,
      decisions: 3,
      denied: 1,
      notDenied: 2,
      afterDenial: { rewritten: 1, overridden: 0, 'denied-again': 0, abandoned: 0 },
      byRule: [['piped-gate', 1]],
      topGates: [['make test', 1]],
      topCommands: [['make test | tail -5', 1]],
    });

    const text = await installed.cli(['friction-report', '--transcripts', transcripts, '--since', 'all']);
    expect(text.exitCode, `${text.stdout}\n${text.stderr}`).toBe(0);
    expect(text.stdout).toMatch(/^by rule:\n +1 +piped-gate$/m);
    expect(text.stdout).toMatch(/^top gates whose status was being lost.*\n +1 +make test$/m);
  });
});
