import { type CommandResult, expectSuccess } from '@kit/test-kit';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { type ClaudeRun, runClaude } from '../src/claude.ts';
import { guardCases, unparseableCommit } from '../src/guard-cases.ts';
import type { ToolCall } from '../src/messages-api.ts';
import { runGuardCli } from '../src/kit.ts';
import { auditLines, installedIds, preToolUseHooks } from '../src/plugin-state.ts';
import {
  guardOfPlugin,
  installPlugin,
  MARKETPLACE,
  type PluginName,
  runClaudeCommand,
  runClaudeShell,
} from '../src/plugin.ts';
import { deniedIds, describeRun } from '../src/scenario.ts';
import { removeScratch, scratchRepo } from '../src/scratch.ts';

const source = inject('kitSource');
afterAll(removeScratch);

// Two enabled plugins that carry one guard (a plugin and its -monitor or -strict variant: one
// package, one plugin name). Claude Code 2.1.332 runs the hooks of the first in enabledPlugins
// (install order) and none of the other's. Each row installs both in one HOME, sees in a session
// which one ran, reads doctor's line (which must name that one), runs the command doctor gives to
// keep the other, and sees the other run.

const piped = guardCases[0]?.call('') as ToolCall; // exit-status-guard's deny call

/** Two plugins of one guard, a call they answer differently, and whether each denies it. */
interface Row {
  first: PluginName;
  second: PluginName;
  call: ToolCall;
  firstDenies: boolean;
  secondDenies: boolean;
}
const rows: Row[] = [
  // Only the enforcing plugin denies the piped check; the monitor records it.
  {
    first: 'exit-status-guard',
    second: 'exit-status-guard-monitor',
    call: piped,
    firstDenies: true,
    secondDenies: false,
  },
  {
    first: 'exit-status-guard-monitor',
    second: 'exit-status-guard',
    call: piped,
    firstDenies: false,
    secondDenies: true,
  },
  // Only the strict plugin refuses a command it cannot parse.
  {
    first: 'git-write-gate',
    second: 'git-write-gate-strict',
    call: unparseableCommit,
    firstDenies: false,
    secondDenies: true,
  },
  {
    first: 'git-write-gate-strict',
    second: 'git-write-gate',
    call: unparseableCommit,
    firstDenies: true,
    secondDenies: false,
  },
];

interface Outcome {
  both: ClaudeRun;
  audit: Record<string, unknown>[];
  doctor: CommandResult;
  keepSecond: string | undefined; // the command doctor gives to keep the second plugin
  kept: { command: CommandResult; run: ClaudeRun; ids: string[] } | undefined;
}

async function sessionOf(row: Row, home: string): Promise<ClaudeRun> {
  const guard = guardCases.find((c) => c.guard === guardOfPlugin(row.first));
  const project = await scratchRepo('plugin-same-name', guard?.tree ?? {});
  return runClaude({ cwd: project, home, script: [row.call], args: ['--include-hook-events'] });
}

async function outcomeOf(row: Row): Promise<Outcome> {
  const { home } = await installPlugin(source, row.first);
  expectSuccess(
    `claude plugin install ${row.second}@${MARKETPLACE}`,
    await runClaudeCommand(['plugin', 'install', `${row.second}@${MARKETPLACE}`], home),
  );
  const both = await sessionOf(row, home);
  const audit = auditLines(home);
  const doctor = await runGuardCli(source, guardOfPlugin(row.first), ['doctor'], {
    cwd: await scratchRepo('plugin-same-name-doctor', {}),
    home,
  });
  const keepSecond = new RegExp(`keep ${row.second}@${MARKETPLACE}: \`([^\`]+)\``).exec(doctor.stdout)?.[1];
  if (keepSecond === undefined) return { both, audit, doctor, keepSecond, kept: undefined };
  const command = await runClaudeShell(keepSecond, home);
  return {
    both,
    audit,
    doctor,
    keepSecond,
    kept: { command, run: await sessionOf(row, home), ids: installedIds(home) },
  };
}

const outcomes = new Map<string, Outcome>();
beforeAll(async () => {
  const done = await Promise.all(rows.map(outcomeOf));
  for (const [index, row] of rows.entries()) outcomes.set(row.first, done[index] as Outcome);
});

const deniedAll = (run: ClaudeRun) =>
  deniedIds(run).length === run.toolResults.length && run.toolResults.length > 0;

describe.each(rows)('$first installed, then $second', (row) => {
  const outcome = () => outcomes.get(row.first) as Outcome;

  test("one PreToolUse hook runs per call, and it is the first plugin's", () => {
    const { both, audit } = outcome();
    expect(preToolUseHooks(both), describeRun(both)).toHaveLength(both.toolResults.length);
    expect(deniedAll(both), describeRun(both)).toBe(row.firstDenies);
    // The monitor records its would-deny; the enforcing plugin its deny; the default gate nothing.
    if (row.first.endsWith('-monitor')) expect(audit).toMatchObject([{ event: 'would-deny' }]);
    if (row.second.endsWith('-monitor')) expect(audit).toMatchObject([{ event: 'deny' }]);
  });

  test('doctor fails on it, naming the plugin that runs and what the other would do', () => {
    const { doctor } = outcome();
    expect(doctor.exitCode, doctor.stdout).toBe(1);
    expect(doctor.stdout).toContain(
      `FAIL ${row.first}@${MARKETPLACE} and ${row.second}@${MARKETPLACE} are both enabled and carry one plugin name, ${guardOfPlugin(row.first)}: Claude Code runs the hooks of the first in enabledPlugins only, ${row.first}@${MARKETPLACE} (`,
    );
  });

  test('the command doctor gives to keep the second leaves it alone, and it runs', () => {
    const { kept, keepSecond } = outcome();
    expect(keepSecond).toBe(`claude plugin uninstall ${row.first}@${MARKETPLACE}`);
    expect(kept?.command.exitCode, `${kept?.command.stdout}\n${kept?.command.stderr}`).toBe(0);
    expect(kept?.ids).toEqual([`kit-judge@${MARKETPLACE}`, `${row.second}@${MARKETPLACE}`].sort());
    const run = kept?.run as ClaudeRun;
    expect(deniedAll(run), describeRun(run)).toBe(row.secondDenies);
  });
});
