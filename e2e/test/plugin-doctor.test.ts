import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { runGuardCli } from '../src/kit.ts';
import { type InstalledPlugin, installPlugin, JUDGE_PACKAGE, MARKETPLACE } from '../src/plugin.ts';
import { removeScratch, scratchRepo } from '../src/scratch.ts';

const source = inject('kitSource');
afterAll(removeScratch);

// Issue 25 item 3 and issue 26 item 4 on the plugin route: `claude plugin install <plugin>@kit` (with
// its dependency kit-judge) in a scratch HOME, then the guard's `doctor` in a repository of that
// user. Its handler is `mcp_tool` on `plugin:kit-judge:judge`: doctor starts kit-judge's server as
// the CLI recorded the plugin and sends the positive control through the handler's own input.

const doctorOf = async (installed: InstalledPlugin, guard: 'exit-status-guard' | 'git-write-gate') =>
  runGuardCli(source, guard, ['doctor'], {
    cwd: await scratchRepo(`${installed.plugin}-doctor`, {}),
    home: installed.home,
  });

// Where the CLI runs kit-judge from: its installed copy, or, for a relative source in a local-folder
// marketplace (the tarballs route), that folder (the cache copy is not what runs).
const judgeRoot = (installed: InstalledPlugin) => {
  if (installed.marketplace.route === 'relative')
    return join(installed.marketplace.dir, 'plugins', JUDGE_PACKAGE);
  const records = JSON.parse(
    readFileSync(join(installed.home, '.claude', 'plugins', 'installed_plugins.json'), 'utf8'),
  ) as { plugins: Record<string, { installPath: string }[]> };
  return records.plugins[`kit-judge@${MARKETPLACE}`]?.[0]?.installPath ?? '(kit-judge not recorded)';
};

describe('doctor proves the plugin route through the kit-judge plugin', () => {
  let plain: InstalledPlugin;
  let strict: InstalledPlugin;
  beforeAll(async () => {
    [plain, strict] = await Promise.all([
      installPlugin(source, 'exit-status-guard'),
      installPlugin(source, 'git-write-gate-strict'),
    ]);
  });

  test('exit-status-guard@kit: the server starts, lists no tools and denies the control', async () => {
    const doctor = await doctorOf(plain, 'exit-status-guard');
    expect(doctor.exitCode, doctor.stdout + doctor.stderr).toBe(0);
    for (const line of [
      /^ok {3}the plugin's handler \(.*hooks\.json\): matcher Bash, mcp_tool plugin:kit-judge:judge judge, timeout 5 s$/m,
      /^ok {3}the server lists no tools: the model never sees plugin:kit-judge:judge$/m,
      /^ok {3}positive control denied through the judge server plugin:kit-judge:judge, as the handler asks it$/m,
      // What the CLI's own install enabled: the judge serves it, and nothing is disabled.
      /^ok {3}the judge serves these guard plugins here \(loaded when a session starts\): exit-status-guard@kit$/m,
    ])
      expect(doctor.stdout).toMatch(line);
    // The server as the CLI starts it, from the folder the CLI runs kit-judge from.
    expect(doctor.stdout).toContain(
      `ok   server plugin:kit-judge:judge: node --max-semi-space-size=1 ${join(judgeRoot(plain), 'dist', 'judge-plugin.cjs')} (the plugin kit-judge@kit, `,
    );
  });

  test('git-write-gate-strict@kit: its marketplace entry handler, reported as strict; a judge that cannot start is a FAIL', async () => {
    const doctor = await doctorOf(strict, 'git-write-gate');
    expect(doctor.exitCode, doctor.stdout + doctor.stderr).toBe(0);
    expect(doctor.stdout).toMatch(
      /^ok {3}the plugin's handler \(the git-write-gate-strict entry of .*marketplace\.json\): matcher Bash, mcp_tool plugin:kit-judge:judge judge, timeout 5 s, strict \("strict": true: the judge asks the guard in strict mode\), onFailure block/m,
    );
    expect(doctor.stdout).toMatch(
      /^ok {3}positive control denied through the judge server plugin:kit-judge:judge/m,
    );

    await rm(join(judgeRoot(strict), 'dist', 'judge-plugin.cjs'));
    const broken = await doctorOf(strict, 'git-write-gate');
    expect(broken.exitCode, broken.stdout).toBe(1);
    expect(broken.stdout).toMatch(
      /^FAIL the positive control did not deny through the judge server plugin:kit-judge:judge \(the server exited \(1\): Error: Cannot find module/m,
    );
    expect(broken.stdout).toMatch(
      /^FAIL this handler has "onFailure": "block" \(strict\): until it is fixed, the host blocks every Bash call it matches$/m,
    );
  });
});
