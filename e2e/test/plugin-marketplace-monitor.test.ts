import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type CommandResult, repoRoot, runCommand } from '@kit/test-kit';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { cliEnvironment, type ClaudeRun, findClaudeBinary, runClaude } from '../src/claude.ts';
import type { ToolCall } from '../src/messages-api.ts';
import { runGuardCli } from '../src/kit.ts';
import { type InstalledPlugin, installPlugin, MARKETPLACE } from '../src/plugin.ts';
import { deniedIds, describeRun } from '../src/scenario.ts';
import { removeScratch, scratchRepo } from '../src/scratch.ts';

const source = inject('kitSource');
afterAll(removeScratch);

// The plugin route's monitor mode, as a team lead takes it: `claude plugin install
// exit-status-guard-monitor@kit` from the marketplace (the loopback registry, or the relative-source
// copy), a session whose deny call runs and is recorded as a would-deny, then the README's one
// promote command, as written, in the same HOME, and the same call in a new session is denied.

/** The one command the READMEs give to turn the monitor plugin into the enforcing one. */
const promoteCommand = `claude plugin uninstall exit-status-guard-monitor@${MARKETPLACE} && claude plugin install exit-status-guard@${MARKETPLACE}`;

const piped: ToolCall = {
  name: 'Bash',
  input: { command: 'make test | tail -5', description: 'run the tests' },
};
const makefileTree = { Makefile: 'test:\n\techo ran >> made-test.txt\n\techo tests passed\n' };
const makeTestRuns = (project: string) =>
  existsSync(join(project, 'made-test.txt'))
    ? readFileSync(join(project, 'made-test.txt'), 'utf8').split('\n').length - 1
    : 0;
const auditLines = (home: string): Record<string, unknown>[] => {
  const file = join(home, '.local', 'state', 'kit-hooks', 'audit.jsonl');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
};
const preToolUseHooks = (run: ClaudeRun) =>
  run.events.filter(
    (event) =>
      event.type === 'system' && event.subtype === 'hook_started' && event.hook_event === 'PreToolUse',
  );
const installedIds = (home: string): string[] =>
  Object.keys(
    (
      JSON.parse(readFileSync(join(home, '.claude', 'plugins', 'installed_plugins.json'), 'utf8')) as {
        plugins: Record<string, unknown>;
      }
    ).plugins,
  ).sort();

let installed: InstalledPlugin;
let monitored: { project: string; run: ClaudeRun; audit: Record<string, unknown>[]; doctor: CommandResult };
let promote: CommandResult;
let enforced: { project: string; run: ClaudeRun };

beforeAll(async () => {
  installed = await installPlugin(source, 'exit-status-guard-monitor');
  const monitorProject = await scratchRepo('plugin-monitor', makefileTree);
  const monitorRun = await runClaude({
    cwd: monitorProject,
    home: installed.home,
    script: [piped],
    args: ['--include-hook-events'],
  });
  const audit = auditLines(installed.home);
  const doctor = await runGuardCli(source, 'exit-status-guard', ['doctor'], {
    cwd: await scratchRepo('plugin-monitor-doctor', {}),
    home: installed.home,
  });
  monitored = { project: monitorProject, run: monitorRun, audit, doctor };
  // The promote command as the README writes it, through a shell, with the CLI on PATH as `claude`.
  const env = cliEnvironment('http://127.0.0.1:9', installed.home);
  promote = await runCommand('sh', ['-c', promoteCommand], {
    cwd: installed.home,
    env: { ...env, PATH: `${dirname(findClaudeBinary())}:${env.PATH}` },
    timeoutMs: 120_000,
  });
  const project = await scratchRepo('plugin-promoted', makefileTree);
  enforced = { project, run: await runClaude({ cwd: project, home: installed.home, script: [piped] }) };
});

describe('exit-status-guard-monitor@kit', () => {
  test('installs from the marketplace with its kit-judge dependency', () => {
    expect(installed.outputs.install.stdout).toContain(
      `Successfully installed plugin: exit-status-guard-monitor@${MARKETPLACE}`,
    );
    expect(installed.outputs.install.stdout).toContain('(+ 1 dependency: kit-judge)');
  });

  test('the call the guard would deny runs, with no word to the model and nothing denied', () => {
    const { run, project } = monitored;
    const [result] = run.toolResults;
    expect(result?.input.command, describeRun(run)).toBe(piped.input.command);
    expect(result?.isError, describeRun(run)).toBe(false);
    expect(result?.text).not.toContain('exit-status-guard');
    expect(deniedIds(run)).toEqual([]);
    expect(makeTestRuns(project)).toBe(1);
  });

  test("only the entry's monitor handler runs: the package's hooks/hooks.json handler does not run beside it", () => {
    const { run } = monitored;
    expect(preToolUseHooks(run), describeRun(run)).toHaveLength(run.toolResults.length);
  });

  test('the would-deny is in the audit trail of the HOME, with its guard and command', () => {
    expect(monitored.audit, describeRun(monitored.run)).toMatchObject([
      { guard: 'exit-status-guard', event: 'would-deny', command: piped.input.command },
    ]);
  });

  test('doctor says monitoring, proves the judge denies the control as enforce mode would, and names the promote command', () => {
    const { doctor } = monitored;
    expect(doctor.exitCode, doctor.stdout + doctor.stderr).toBe(0);
    for (const line of [
      /^ok {3}the plugin's handler \(the exit-status-guard-monitor entry of .*marketplace\.json\): matcher Bash, mcp_tool plugin:kit-judge:judge judge, timeout 5 s, monitoring \(/m,
      /^ok {3}positive control denied through the judge server plugin:kit-judge:judge, as the handler asks it$/m,
    ])
      expect(doctor.stdout).toMatch(line);
    expect(doctor.stdout).toContain(`To enforce: \`${promoteCommand}\``);
  });
});

describe('promoted with the one command the README gives', () => {
  test.for(['README.md', 'packages/exit-status-guard/README.md'])(
    '%s gives the command as run here',
    (readme) => {
      expect(readFileSync(join(repoRoot, readme), 'utf8')).toContain(promoteCommand);
    },
  );

  test('the command succeeds and leaves exit-status-guard@kit (and kit-judge) installed, not the monitor', () => {
    expect(promote.exitCode, `${promote.stdout}\n${promote.stderr}`).toBe(0);
    expect(installedIds(installed.home)).toEqual([
      `exit-status-guard@${MARKETPLACE}`,
      `kit-judge@${MARKETPLACE}`,
    ]);
  });

  test('the same call is now denied: the reason reaches the model and make never runs for it', () => {
    const { run, project } = enforced;
    const [result] = run.toolResults;
    expect(result?.isError, describeRun(run)).toBe(true);
    expect(result?.text).toMatch(/^PreToolUse:Bash hook error: exit-status-guard: `make test`/);
    expect(deniedIds(run)).toEqual([result?.toolUseId]);
    expect(makeTestRuns(project)).toBe(0);
  });
});
