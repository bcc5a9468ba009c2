import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type CommandResult, repoRoot } from '@kit/test-kit';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { type ClaudeRun, runClaude } from '../src/claude.ts';
import { type GuardCase, guardCases } from '../src/guard-cases.ts';
import type { ToolCall } from '../src/messages-api.ts';
import { runGuardCli } from '../src/kit.ts';
import type { GuardName } from '../src/pack.ts';
import { auditLines, installedIds, preToolUseHooks } from '../src/plugin-state.ts';
import { type InstalledPlugin, installPlugin, MARKETPLACE, runClaudeShell } from '../src/plugin.ts';
import { deniedIds, describeRun } from '../src/scenario.ts';
import { removeScratch, scratchRepo } from '../src/scratch.ts';

const source = inject('kitSource');
afterAll(removeScratch);

// The plugin route's monitor mode, as a team lead takes it, for every guard: `claude plugin install
// <guard>-monitor@kit` from the marketplace (the loopback registry, or the relative-source copy), a
// session whose deny call runs and is recorded as a would-deny (and whose silent call records
// nothing), then the README's one promote command, as written, in the same HOME, and the same call
// in a new session is denied.

/** The one command the READMEs give to turn a monitor plugin into the enforcing one. */
const promoteCommand = (guard: GuardName) =>
  `claude plugin uninstall ${guard}-monitor@${MARKETPLACE} && claude plugin install ${guard}@${MARKETPLACE}`;

/** Per guard: the rule its deny call breaks, a call it is silent on, and the READMEs that give the promote command. */
interface MonitorExtra {
  guard: GuardName;
  rule: string;
  silent: (project: string) => ToolCall;
  readmes: string[];
}
type MonitorRow = GuardCase & MonitorExtra;
const extras: MonitorExtra[] = [
  {
    guard: 'exit-status-guard',
    rule: 'piped-gate',
    silent: () => ({ name: 'Bash', input: { command: 'touch ran.txt', description: 'create a file' } }),
    readmes: ['README.md', 'packages/exit-status-guard/README.md'],
  },
  {
    guard: 'git-write-gate',
    rule: 'commit',
    silent: () => ({ name: 'Bash', input: { command: 'git status', description: 'status' } }),
    readmes: ['packages/git-write-gate/README.md'],
  },
  {
    guard: 'roseline-gate',
    rule: 'csharp-read',
    silent: (project) => ({ name: 'Read', input: { file_path: join(project, 'App.csproj') } }),
    readmes: ['packages/roseline-gate/README.md'],
  },
];
const monitorRows: MonitorRow[] = extras.map((extra) => ({
  ...(guardCases.find((c) => c.guard === extra.guard) as GuardCase),
  ...extra,
}));

interface Session {
  project: string;
  run: ClaudeRun;
}
interface MonitorScenario {
  installed: InstalledPlugin;
  monitored: Session & { audit: Record<string, unknown>[]; doctor: CommandResult };
  promote: CommandResult;
  enforced: Session;
}

async function session(row: MonitorRow, home: string, label: string, script: 'both' | 'deny') {
  const project = await scratchRepo(`${label}-${row.guard}`, row.tree);
  const calls = script === 'both' ? [row.call(project), row.silent(project)] : [row.call(project)];
  const run = await runClaude({
    cwd: project,
    home,
    script: calls,
    env: await row.env(),
    args: ['--include-hook-events'],
  });
  return { project, run };
}

async function monitorScenario(row: MonitorRow): Promise<MonitorScenario> {
  const installed = await installPlugin(source, `${row.guard}-monitor`);
  const watched = await session(row, installed.home, 'plugin-monitor', 'both');
  const audit = auditLines(installed.home);
  const doctor = await runGuardCli(source, row.guard, ['doctor'], {
    cwd: await scratchRepo('plugin-monitor-doctor', {}),
    home: installed.home,
  });
  // The promote command as the README writes it, through a shell, with the CLI on PATH as `claude`.
  const promote = await runClaudeShell(promoteCommand(row.guard), installed.home);
  const enforced = await session(row, installed.home, 'plugin-promoted', 'deny');
  return { installed, monitored: { ...watched, audit, doctor }, promote, enforced };
}

const scenarios = new Map<GuardName, MonitorScenario>();
beforeAll(async () => {
  // The three guards' installs and sessions run at once; each test reads one fact of them.
  const done = await Promise.all(monitorRows.map(monitorScenario));
  for (const [index, row] of monitorRows.entries()) scenarios.set(row.guard, done[index] as MonitorScenario);
});
const scenarioOf = (guard: GuardName) => scenarios.get(guard) as MonitorScenario;

describe.each(monitorRows)('$guard-monitor@kit', (row) => {
  test('installs from the marketplace with its kit-judge dependency', () => {
    const { installed } = scenarioOf(row.guard);
    expect(installed.outputs.install.stdout).toContain(
      `Successfully installed plugin: ${row.guard}-monitor@${MARKETPLACE}`,
    );
    expect(installed.outputs.install.stdout).toContain('(+ 1 dependency: kit-judge)');
  });

  test('the call the guard would deny runs, with no word to the model and nothing denied', () => {
    const { run, project } = scenarioOf(row.guard).monitored;
    const [result] = run.toolResults;
    expect(result?.isError, describeRun(run)).toBe(false);
    expect(result?.text).not.toContain(row.guard);
    expect(deniedIds(run)).toEqual([]);
    expect(row.ran(project, result?.text ?? '')).toBe(true);
  });

  test("only the entry's monitor handler runs: the package's hooks/hooks.json handler does not run beside it", () => {
    const { run } = scenarioOf(row.guard).monitored;
    expect(preToolUseHooks(run), describeRun(run)).toHaveLength(run.toolResults.length);
    expect(run.toolResults, describeRun(run)).toHaveLength(2);
  });

  test('the would-deny is in the audit trail with its guard and rule; the silent call records nothing', () => {
    const { audit, run } = scenarioOf(row.guard).monitored;
    expect(audit, describeRun(run)).toMatchObject([
      { guard: row.guard, event: 'would-deny', rule: row.rule, session: run.sessionId },
    ]);
  });

  test('doctor says monitoring, proves the judge denies the control as enforce mode would, and names the promote command', () => {
    const { doctor } = scenarioOf(row.guard).monitored;
    expect(doctor.exitCode, doctor.stdout + doctor.stderr).toBe(0);
    for (const line of [
      new RegExp(
        `^ok {3}the plugin's handler \\(the ${row.guard}-monitor entry of .*marketplace\\.json\\): matcher ${row.call('').name}, mcp_tool plugin:kit-judge:judge judge, timeout 5 s, monitoring \\(`,
        'm',
      ),
      /^ok {3}positive control denied through the judge server plugin:kit-judge:judge, as the handler asks it$/m,
    ])
      expect(doctor.stdout).toMatch(line);
    expect(doctor.stdout).toContain(`To enforce: \`${promoteCommand(row.guard)}\``);
  });

  test.for(row.readmes)('%s gives the promote command as run here', (readme) => {
    expect(readFileSync(join(repoRoot, readme), 'utf8')).toContain(promoteCommand(row.guard));
  });

  test('the promote command succeeds and leaves the enforcing plugin (and kit-judge) installed, not the monitor', () => {
    const { promote, installed } = scenarioOf(row.guard);
    expect(promote.exitCode, `${promote.stdout}\n${promote.stderr}`).toBe(0);
    expect(installedIds(installed.home)).toEqual(
      [`kit-judge@${MARKETPLACE}`, `${row.guard}@${MARKETPLACE}`].sort(),
    );
  });

  test('promoted, the same call is denied: the reason reaches the model and the call never runs', () => {
    const { run, project } = scenarioOf(row.guard).enforced;
    const [result] = run.toolResults;
    expect(result?.isError, describeRun(run)).toBe(true);
    expect(result?.text.startsWith(row.opener), result?.text).toBe(true);
    expect(deniedIds(run)).toEqual([result?.toolUseId]);
    expect(row.ran(project, result?.text ?? '')).toBe(false);
  });
});
