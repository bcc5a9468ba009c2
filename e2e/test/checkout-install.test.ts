// The root README's first install lines, run as written: `node scripts/install-from-checkout.mjs
// <guard> <project>` (settings route: pnpm pack, then npx -p <tarballs> <guard> install --project)
// and the same with --plugin (a marketplace folder in the checkout, `claude plugin marketplace add`
// and `claude plugin install`, project scope). No @kit package comes from any registry: the scratch
// HOME's npm has never seen one. Then the real CLI in the project denies the guard's call.
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, runCommand } from '@kit/test-kit';
import { afterAll, describe, expect, test } from 'vitest';
import { findClaudeBinary, runClaude } from '../src/claude.ts';
import { pathWith } from '../src/environment.ts';
import { guardCases } from '../src/guard-cases.ts';
import { deniedIds, describeRun } from '../src/scenario.ts';
import { removeScratch, scratchDir, scratchRepo } from '../src/scratch.ts';

afterAll(removeScratch);

const { tree, call, ran, opener } = guardCases.find(
  (c) => c.guard === 'exit-status-guard',
) as (typeof guardCases)[number];

/** The README's line, in the project's folder, with HOME a scratch one and `claude` the pinned CLI on PATH. */
async function installFromCheckout(label: string, extra: string[], plugin = 'exit-status-guard') {
  const project = await scratchRepo(label, tree);
  const home = await scratchDir(`${label}-home`);
  const bin = await scratchDir(`${label}-bin`);
  symlinkSync(findClaudeBinary(), join(bin, 'claude'));
  const result = await runCommand(
    process.execPath,
    [join(repoRoot, 'scripts', 'install-from-checkout.mjs'), plugin, project, ...extra],
    { cwd: project, env: { ...process.env, HOME: home, PATH: pathWith(bin) }, timeoutMs: 300_000 },
  );
  return { project, home, bin, result };
}

describe.each([
  ['settings route', []],
  ['plugin route', ['--plugin']],
])('install-from-checkout.mjs, %s', (label, extra) => {
  test('installs, and the real CLI in the project denies the call, which never ran', {
    timeout: 400_000,
  }, async () => {
    const { project, home, result } = await installFromCheckout(label.replace(' ', '-'), extra);
    expect(result.exitCode, `${result.stdout}\n${result.stderr}`).toBe(0);
    const run = await runClaude({ cwd: project, home, script: [call(project)] });
    const [toolResult] = run.toolResults;
    expect(toolResult?.text.startsWith(opener), describeRun(run)).toBe(true);
    expect(deniedIds(run)).toEqual([toolResult?.toolUseId]);
    expect(ran(project, toolResult?.text ?? '')).toBe(false);
  });
});

// The monitor plugin the same way, then the README's promote command for a project-scope install, as
// written, in the project: the call runs unseen by the model, then is denied.
const promoteInProject =
  'claude plugin uninstall exit-status-guard-monitor@kit --scope project && claude plugin install exit-status-guard@kit --scope project';

test('install-from-checkout.mjs exit-status-guard-monitor --plugin: the call runs; promoted, it is denied', {
  timeout: 500_000,
}, async () => {
  const { project, home, bin, result } = await installFromCheckout(
    'plugin-monitor',
    ['--plugin'],
    'exit-status-guard-monitor',
  );
  expect(result.exitCode, `${result.stdout}\n${result.stderr}`).toBe(0);
  const watched = await runClaude({ cwd: project, home, script: [call(project)] });
  const [unseen] = watched.toolResults;
  expect(unseen?.isError, describeRun(watched)).toBe(false);
  expect(deniedIds(watched)).toEqual([]);
  const promote = await runCommand('sh', ['-c', promoteInProject], {
    cwd: project,
    env: { ...process.env, HOME: home, PATH: pathWith(bin) },
    timeoutMs: 120_000,
  });
  expect(promote.exitCode, `${promote.stdout}\n${promote.stderr}`).toBe(0);
  const enforced = await runClaude({ cwd: project, home, script: [call(project)] });
  const [denied] = enforced.toolResults;
  expect(denied?.text.startsWith(opener), describeRun(enforced)).toBe(true);
  expect(deniedIds(enforced)).toEqual([denied?.toolUseId]);
});
