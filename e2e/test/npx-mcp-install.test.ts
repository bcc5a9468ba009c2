import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expectSuccess, runCommand } from '@kit/test-kit';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { type ClaudeRun, findClaudeBinary, runClaude } from '../src/claude.ts';
import { pathWith } from '../src/environment.ts';
import { guardCases } from '../src/guard-cases.ts';
import { guardCliBin, npmEnvironment, runGuardCli } from '../src/kit.ts';
import { deniedIds, describeRun } from '../src/scenario.ts';
import { removeScratch, scratchDir, scratchRepo } from '../src/scratch.ts';

const source = inject('kitSource');
afterAll(removeScratch);

const { tree } = guardCases.find((c) => c.guard === 'exit-status-guard') as (typeof guardCases)[number];
const guards = ['exit-status-guard', 'git-write-gate'] as const;

// Issue 25 item 3, as a user has it: `npx <guard> install` with Claude Code on PATH takes the MCP
// path (user scope): both guards share one judge server, declared through `claude mcp add`; in the
// real CLI the deny reaches the model and a silent call runs; uninstall gives the declaration back.
// Issue 26 item 7 on this route: the judge records its session in the kit's state folder, so
// `statusline` run inside the session (with the id the record is named by) says it is connected,
// and after the session, with the id the CLI reported, that it has stopped.
describe('npx install takes the MCP path where Claude Code can take it', () => {
  let home: string;
  let project: string;
  let run: ClaudeRun;
  let statusInSession: string;
  const sessions = () => join(home, '.local', 'state', 'kit-hooks', 'kit-judge', 'sessions');
  const place = () => ({ cwd: project, home, env: { PATH: pathWith(dirname(findClaudeBinary())) } });
  beforeAll(async () => {
    home = await scratchDir('npx-mcp-home');
    project = await scratchRepo('npx-mcp', tree);
    for (const guard of guards) {
      const installed = expectSuccess(
        `${guard} install --user`,
        await runGuardCli(source, guard, ['install', '--user'], place()),
      );
      expect(installed.stdout).toMatch(/^transport: mcp_tool, through the session's judge server kit-judge/m);
    }
    // The host's status line command, as a Bash call of the session: its JSON names the session the
    // judge's one record is named by.
    statusInSession = [
      `id=$(basename "$HOME"/.local/state/kit-hooks/kit-judge/sessions/*.json .json)`,
      `printf '{"session_id":"%s"}' "$id" | ${await guardCliBin(source, 'exit-status-guard', place())} statusline > status.txt`,
    ].join('; ');
    run = await runClaude({
      cwd: project,
      home,
      script: [
        { name: 'Bash', input: { command: 'make test | tail -5', description: 'run the tests' } },
        { name: 'Bash', input: { command: 'touch ran.txt', description: 'create a file' } },
        { name: 'Bash', input: { command: statusInSession, description: 'the status line' } },
      ],
    });
  });

  test('one server names both judge modules', () => {
    const config = JSON.parse(readFileSync(join(home, '.claude.json'), 'utf8'));
    const hooks = join(home, '.claude', 'hooks');
    expect(config.mcpServers['kit-judge'].args).toEqual([
      join(hooks, 'kit-judge.cjs'),
      ...guards.map((guard) => join(hooks, `${guard}.judge.cjs`)),
    ]);
  });

  test('the deny reaches the model through the mcp_tool handler; the silent call runs', () => {
    const [piped, touch] = run.toolResults;
    expect(piped?.input.command, describeRun(run)).toBe('make test | tail -5');
    expect(piped?.isError).toBe(true);
    expect(piped?.text).toContain('exit-status-guard: `make test`');
    expect(deniedIds(run)).toEqual([piped?.toolUseId]);
    expect(touch?.isError).toBe(false);
    expect(existsSync(join(project, 'ran.txt'))).toBe(true);
  });

  test('statusline: the judge connected in the session, stopped after it; one record, named by the session', async () => {
    expect(run.toolResults[2]?.isError, describeRun(run)).toBe(false);
    const inSession = readFileSync(join(project, 'status.txt'), 'utf8');
    expect(inSession).toMatch(/exit-status-guard enforcing, judge connected, 1 denied/);
    expect(inSession).toMatch(/git-write-gate enforcing, judge connected/);
    expect(readdirSync(sessions())).toEqual([`${run.sessionId}.json`]);
    const after = await runCommand(await guardCliBin(source, 'exit-status-guard', place()), ['statusline'], {
      cwd: project,
      env: npmEnvironment(home, { XDG_STATE_HOME: join(home, '.local', 'state') }),
      input: JSON.stringify({ session_id: run.sessionId }),
      timeoutMs: 60_000,
    });
    expect(after.stdout).toMatch(/exit-status-guard enforcing, judge stopped/);
  });

  test('doctor proves the path: the server as declared lists no tools and denies the positive control', async () => {
    const doctor = await runGuardCli(source, 'exit-status-guard', ['doctor', '--user'], place());
    expect(doctor.exitCode, doctor.stdout + doctor.stderr).toBe(0);
    expect(doctor.stdout).toMatch(/^ok {3}the server lists no tools: the model never sees kit-judge$/m);
    expect(doctor.stdout).toMatch(
      /^ok {3}positive control denied through the judge server kit-judge, as the handler asks it$/m,
    );
  });

  test('uninstall of each: the server goes with the last guard, the settings file with the last handler', async () => {
    for (const guard of guards)
      expectSuccess(
        `${guard} uninstall --user`,
        await runGuardCli(source, guard, ['uninstall', '--user'], place()),
      );
    const config = JSON.parse(readFileSync(join(home, '.claude.json'), 'utf8'));
    expect(config.mcpServers ?? {}).toEqual({});
    expect(existsSync(join(home, '.claude', 'settings.json'))).toBe(false);
    expect(existsSync(join(home, '.claude', 'hooks', 'kit-judge.cjs'))).toBe(false);
  });
});
