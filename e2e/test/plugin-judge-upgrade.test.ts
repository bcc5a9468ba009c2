import { cp, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expectSuccess } from '@kit/test-kit';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { type ClaudeRun, findClaudeBinary, runClaude } from '../src/claude.ts';
import { guardCases, managedRepoTree } from '../src/guard-cases.ts';
import { requireKit } from '../src/kit.ts';
import type { ToolCall } from '../src/messages-api.ts';
import {
  directoryMarketplace,
  MARKETPLACE,
  type readKitMarketplace,
  runClaudeCommand,
} from '../src/plugin.ts';
import type { GuardName } from '../src/pack.ts';
import { describeRun } from '../src/scenario.ts';
import { removeScratch, scratchDir, scratchRepo } from '../src/scratch.ts';

const source = inject('kitSource');
afterAll(removeScratch);

// One guard upgraded under a running judge, in the real CLI. A directory marketplace of the packed
// kit; in a scratch HOME `claude plugin install` of exit-status-guard, git-write-gate and
// roseline-gate (user scope), then `claude plugin disable roseline-gate@kit`. One print-mode
// session in a managed repository: exit-status-guard denies `make test | tail -5` (version A, the
// packed plugin) and git-write-gate a commit; then the model's own Bash call publishes version B
// of exit-status-guard (the marketplace entry moved to a copy whose judge module appends a marker
// to each deny reason) and runs `claude plugin marketplace update` and `claude plugin update`, as
// a user would in another terminal, and the same for kit-judge (B records each process it
// starts); the same two calls again. The judge process is the same throughout (its pid in B's
// marker and in its session record, no restart); kit-judge B starts in the next session only.

// Each guard's own denied call (guard-cases.ts): `make test | tail -5`, and a commit in a managed repository.
const callOf = (guard: GuardName): ToolCall => {
  const found = guardCases.find((c) => c.guard === guard);
  if (found === undefined) throw new Error(`e2e: no guard case for ${guard}`);
  return found.call('');
};
const pipedTests = callOf('exit-status-guard');
const commit = callOf('git-write-gate');

/** B's judge module: A's (kept beside it), each deny reason marked with the version and the judging process. */
const markedJudge = `const a = require('./judge-a.cjs').judge;
exports.judge = {
  ...a,
  judge: async (...args) => {
    const out = await a.judge(...args);
    if (out.stdout === '') return out;
    const answer = JSON.parse(out.stdout);
    answer.hookSpecificOutput.permissionDecisionReason += ' [version B, judge pid ' + process.pid + ']';
    return { ...out, stdout: JSON.stringify(answer) + '\\n' };
  },
};
`;

const nextPatch = (version: string) => version.replace(/(\d+)$/, (patch) => String(Number(patch) + 1));

interface Upgrade {
  home: string;
  run: ClaudeRun;
  versionA: string;
  versionB: string;
  updateLog: string;
  installedBefore: Record<string, { installPath: string }[]>;
  installedAfter: Record<string, { installPath: string }[]>;
  status: SessionStatus;
  /** Each process of kit-judge B started by the end of the first session: none, it kept A's. */
  judgeBStartedInFirst: string;
  next: { run: ClaudeRun; status: SessionStatus; judgeBStarted: string };
}
type SessionStatus = { pid: number; restarts: number; loaded: string[] };

/** The kit-judge record of a run's session (session-status.ts), or {} when there is none. */
async function sessionStatus(home: string, run: ClaudeRun): Promise<SessionStatus> {
  const data = join(home, '.claude', 'plugins', 'data', `kit-judge-${MARKETPLACE}`);
  return JSON.parse(
    await readFile(join(data, 'sessions', `${run.sessionId}.json`), 'utf8').catch(() => '{}'),
  );
}
let upgrade: Upgrade;

async function installedPlugins(home: string): Promise<Record<string, { installPath: string }[]>> {
  const file = join(home, '.claude', 'plugins', 'installed_plugins.json');
  return (JSON.parse(await readFile(file, 'utf8')) as { plugins: Record<string, { installPath: string }[]> })
    .plugins;
}

/** B's kit-judge server: A's, after it records which process started it (a judge of version B). */
const markedServer = (
  startedFile: string,
) => `require('node:fs').appendFileSync(${JSON.stringify(startedFile)}, process.pid + '\\n');
require('./judge-plugin-a.cjs');
`;

/**
 * Version B of a plugin beside A in the directory marketplace: a copy of its folder at `versionB`,
 * changed by `change`, with the entry moved to it in `marketplace` (published later, as a whole).
 */
async function copyAsVersionB(
  marketplaceDir: string,
  marketplace: Awaited<ReturnType<typeof readKitMarketplace>>,
  entry: { name: string; folder: string },
  versionB: string,
  change: (copy: string) => Promise<void>,
): Promise<void> {
  const b = join(marketplaceDir, 'plugins', `${entry.folder}-b`);
  await cp(join(marketplaceDir, 'plugins', entry.folder), b, { recursive: true });
  const manifest = join(b, '.claude-plugin', 'plugin.json');
  await writeFile(
    manifest,
    JSON.stringify({ ...JSON.parse(await readFile(manifest, 'utf8')), version: versionB }),
  );
  await change(b);
  for (const plugin of marketplace.plugins)
    if (plugin.name === entry.name) plugin.source = `./plugins/${entry.folder}-b`;
}

/** Versions B of exit-status-guard and of kit-judge, and the marketplace.json that publishes them. */
async function publishLater(marketplaceDir: string, versionB: string, judgeStarted: string): Promise<string> {
  const file = join(marketplaceDir, '.claude-plugin', 'marketplace.json');
  const marketplace = JSON.parse(await readFile(file, 'utf8')) as Awaited<
    ReturnType<typeof readKitMarketplace>
  >;
  const guard = { name: 'exit-status-guard', folder: 'exit-status-guard' };
  await copyAsVersionB(marketplaceDir, marketplace, guard, versionB, async (b) => {
    await rename(join(b, 'dist', 'judge.cjs'), join(b, 'dist', 'judge-a.cjs'));
    await writeFile(join(b, 'dist', 'judge.cjs'), markedJudge);
  });
  const judge = { name: 'kit-judge', folder: 'gate-approval' };
  await copyAsVersionB(marketplaceDir, marketplace, judge, versionB, async (b) => {
    await rename(join(b, 'dist', 'judge-plugin.cjs'), join(b, 'dist', 'judge-plugin-a.cjs'));
    await writeFile(join(b, 'dist', 'judge-plugin.cjs'), markedServer(judgeStarted));
  });
  const later = join(marketplaceDir, 'marketplace-b.json');
  await writeFile(later, JSON.stringify(marketplace, null, 2));
  return later;
}

beforeAll(async () => {
  const marketplace = await directoryMarketplace(source);
  const home = await scratchDir('judge-upgrade-home');
  const claude = async (args: string[]) =>
    expectSuccess(`claude ${args.join(' ')}`, await runClaudeCommand(args, home));
  await claude(['plugin', 'marketplace', 'add', marketplace.dir]);
  for (const plugin of ['exit-status-guard', 'git-write-gate', 'roseline-gate'])
    await claude(['plugin', 'install', `${plugin}@${MARKETPLACE}`]);
  await claude(['plugin', 'disable', `roseline-gate@${MARKETPLACE}`]);
  const versionA = String(
    requireKit(source).packages.find((p) => p.name === '@kit/exit-status-guard')?.version,
  );
  const versionB = nextPatch(versionA);
  const judgeStarted = join(home, 'judge-b-started');
  const later = await publishLater(marketplace.dir, versionB, judgeStarted);
  const updateLog = join(home, 'update.log');
  const script = join(home, 'update.sh');
  const bin = findClaudeBinary();
  await writeFile(
    script,
    [
      `cp '${later}' '${join(marketplace.dir, '.claude-plugin', 'marketplace.json')}' &&`,
      `'${bin}' plugin marketplace update ${MARKETPLACE} > '${updateLog}' 2>&1 &&`,
      `'${bin}' plugin update exit-status-guard@${MARKETPLACE} >> '${updateLog}' 2>&1 &&`,
      `'${bin}' plugin update kit-judge@${MARKETPLACE} >> '${updateLog}' 2>&1`,
      '',
    ].join('\n'),
  );
  const installedBefore = await installedPlugins(home);
  const project = await scratchRepo('judge-upgrade', {
    ...managedRepoTree,
    Makefile: 'test:\n\techo tests passed\n',
  });
  const update: ToolCall = {
    name: 'Bash',
    input: { command: `sh ${script}`, description: 'publish and install version B of exit-status-guard' },
  };
  const run = await runClaude({
    cwd: project,
    home,
    script: [pipedTests, commit, update, pipedTests, commit],
    timeoutMs: 90_000,
  });
  const judgeBStartedInFirst = await readFile(judgeStarted, 'utf8').catch(() => '');
  // A new session: the host starts kit-judge anew, now version B.
  const next = await runClaude({ cwd: project, home, script: [pipedTests] });
  upgrade = {
    home,
    run,
    versionA,
    versionB,
    updateLog: await readFile(updateLog, 'utf8').catch(() => '(no log)'),
    installedBefore,
    installedAfter: await installedPlugins(home),
    status: await sessionStatus(home, run),
    judgeBStartedInFirst,
    next: {
      run: next,
      status: await sessionStatus(home, next),
      judgeBStarted: await readFile(judgeStarted, 'utf8').catch(() => ''),
    },
  };
}, 180_000);

const installPathOf = (installed: Upgrade['installedBefore'], plugin: string) =>
  installed[`${plugin}@${MARKETPLACE}`]?.[0]?.installPath ?? '(none)';
const markerOf = (text: string | undefined) => / \[version B, judge pid (\d+)\]$/.exec(text ?? '');

describe('an upgrade of one guard under a running judge (the real CLI)', () => {
  test('`claude plugin update` installed version B of exit-status-guard and left git-write-gate as it was', () => {
    const { installedBefore, installedAfter, versionA, versionB, updateLog, run } = upgrade;
    const [, , updated] = run.toolResults;
    expect(updated?.isError, describeRun(run)).toBe(false);
    expect(updateLog).toContain(`updated from ${versionA} to ${versionB}`);
    expect(installPathOf(installedBefore, 'exit-status-guard')).toMatch(new RegExp(`/${versionA}$`));
    expect(installPathOf(installedAfter, 'exit-status-guard')).toMatch(new RegExp(`/${versionB}$`));
    expect(installPathOf(installedAfter, 'git-write-gate')).toBe(
      installPathOf(installedBefore, 'git-write-gate'),
    );
  });

  test('the call before the update is judged by A, the one after by B, in the same judge process', () => {
    const { run, status } = upgrade;
    const [before, , , after] = run.toolResults;
    expect(before?.text, describeRun(run)).toMatch(
      /^PreToolUse:Bash hook error: exit-status-guard: `make test`/,
    );
    expect(markerOf(before?.text)).toBeNull();
    const marker = markerOf(after?.text);
    expect(marker, describeRun(run)).not.toBeNull();
    // B is A with the marker: the verdict itself is the same.
    expect(after?.text.slice(0, marker?.index)).toBe(before?.text);
    expect(Number(marker?.[1])).toBe(status.pid);
    expect(status.restarts).toBe(0);
    expect(run.permissionDenials).toHaveLength(4);
  });

  test('kit-judge updated in the same command keeps serving as A in that session, and is B from the next session on', () => {
    const { updateLog, versionA, versionB, judgeBStartedInFirst, next, status } = upgrade;
    expect(updateLog).toContain(`Plugin "kit-judge" updated from ${versionA} to ${versionB}`);
    expect(judgeBStartedInFirst).toBe('');
    expect(next.judgeBStarted.trim().split('\n'), describeRun(next.run)).toEqual([String(next.status.pid)]);
    expect(next.status.pid).not.toBe(status.pid);
    // And the guard's B judges there too.
    expect(Number(markerOf(next.run.toolResults[0]?.text)?.[1])).toBe(next.status.pid);
  });

  test("the other guard's verdicts are unchanged: git-write-gate denies the commit before and after in the same words", () => {
    const { run } = upgrade;
    const [, before, , , after] = run.toolResults;
    expect(before?.text, describeRun(run)).toMatch(/^PreToolUse:Bash hook error: git-write-gate: /);
    expect(after?.text).toBe(before?.text);
  });

  test('the judge loaded the enabled guards at start and B at its first call; the disabled roseline-gate never', () => {
    const { installedBefore, installedAfter, status } = upgrade;
    const module = (installed: Upgrade['installedBefore'], plugin: string) =>
      join(installPathOf(installed, plugin), 'dist', 'judge.cjs');
    expect(new Set(status.loaded)).toEqual(
      new Set([
        module(installedBefore, 'exit-status-guard'),
        module(installedBefore, 'git-write-gate'),
        module(installedAfter, 'exit-status-guard'),
      ]),
    );
    expect(status.loaded.at(-1)).toBe(module(installedAfter, 'exit-status-guard'));
    expect(installPathOf(installedBefore, 'roseline-gate')).not.toBe('(none)');
    expect(status.loaded).not.toContain(module(installedBefore, 'roseline-gate'));
  });
});
