import { existsSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { git, type Tree } from '@kit/test-kit';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { type ClaudeRun, runClaude } from '../src/claude.ts';
import { pathWith } from '../src/environment.ts';
import {
  aTurnLater,
  commitCount,
  csharpFile,
  csharpFileMarker,
  csharpTree,
  managedRepoTree,
  unparseableCommit as unparseable,
} from '../src/guard-cases.ts';
import type { ToolCall } from '../src/messages-api.ts';
import { requireKit } from '../src/kit.ts';
import {
  guardOfPlugin,
  type InstalledPlugin,
  installPlugin,
  MARKETPLACE,
  type PluginName,
} from '../src/plugin.ts';
import { deniedIds, describeRun, stubExecutable } from '../src/scenario.ts';
import { removeScratch, scratchRepo } from '../src/scratch.ts';

const source = inject('kitSource');
afterAll(removeScratch);

// The plugin route, as a user takes it: `claude plugin marketplace add <the checkout>` and
// `claude plugin install <plugin>@kit` in a scratch HOME (user scope), then sessions in scratch
// repositories that have no settings of their own: the only hook there is the plugin's. With the
// registry, the CLI fetches @kit/<guard> from npm, which the scratch HOME's .npmrc points at the
// loopback verdaccio; with tarballs, from a relative-source copy of the marketplace (src/plugin.ts).
// The four installs and their sessions run at once; each test below reads one fact of them.

const commit: ToolCall = {
  name: 'Bash',
  input: { command: 'git commit --allow-empty -m "e2e: a commit"', description: 'commit' },
};
const escapedCommit: ToolCall = {
  name: 'Bash',
  input: { command: `GIT_GATE=off ${commit.input.command}`, description: 'commit, once, past the gate' },
};
const suggestedRewrite =
  'mkdir -p tmp && make test > tmp/out.log 2>&1; echo "EXIT=$?"; tail -5 < tmp/out.log';
const makefileTree = { Makefile: 'test:\n\techo ran >> made-test.txt\n\techo tests passed\n' };
const makeTestRuns = (project: string) =>
  existsSync(join(project, 'made-test.txt'))
    ? readFileSync(join(project, 'made-test.txt'), 'utf8').split('\n').length - 1
    : 0;

interface Session {
  project: string;
  run: ClaudeRun;
}

async function session(
  installed: InstalledPlugin,
  label: string,
  tree: Tree,
  script: (project: string) => ToolCall[],
  options: { env?: Record<string, string>; args?: string[] } = {},
): Promise<Session> {
  const project = await scratchRepo(label, tree);
  const run = await runClaude({ cwd: project, home: installed.home, script: script(project), ...options });
  return { project, run };
}

const hookStarts = (run: ClaudeRun) =>
  run.events.filter(
    // PreToolUse only: kit-judge's UserPromptSubmit hook (its never-silent notice) starts once per prompt too.
    (event) =>
      event.type === 'system' && event.subtype === 'hook_started' && event.hook_event === 'PreToolUse',
  );

let exitStatus: { installed: InstalledPlugin; session: Session };
let gate: { installed: InstalledPlugin; managed: Session; plain: Session };
let strict: { installed: InstalledPlugin; managed: Session; bundleRemoved: Session };
let roseline: { installed: InstalledPlugin; session: Session };
const installs = (): Record<Exclude<PluginName, `${string}-monitor`>, InstalledPlugin> => ({
  'exit-status-guard': exitStatus.installed,
  'git-write-gate': gate.installed,
  'git-write-gate-strict': strict.installed,
  'roseline-gate': roseline.installed,
});

beforeAll(async () => {
  const dnx = await stubExecutable('dnx');
  [exitStatus, gate, strict, roseline] = await Promise.all([
    installPlugin(source, 'exit-status-guard').then(async (installed) => ({
      installed,
      session: await session(installed, 'plugin-exit-status', makefileTree, () => [
        { name: 'Bash', input: { command: 'make test | tail -5', description: 'run the tests' } },
        { name: 'Bash', input: { command: suggestedRewrite, description: 'run the tests, keep the status' } },
        { name: 'Bash', input: { command: 'touch ran.txt', description: 'create a file' } },
      ]),
    })),
    installPlugin(source, 'git-write-gate').then(async (installed) => ({
      installed,
      managed: await session(installed, 'plugin-gate-managed', managedRepoTree, () => [
        commit,
        escapedCommit,
      ]),
      plain: await session(installed, 'plugin-gate-plain', {}, () => [commit]),
    })),
    installPlugin(source, 'git-write-gate-strict').then(async (installed) => {
      // --include-hook-events: the stream then says how many hooks started for each call.
      const managed = await session(
        installed,
        'plugin-strict',
        managedRepoTree,
        () => [unparseable, commit],
        {
          args: ['--include-hook-events'],
        },
      );
      // Then the installed copy loses its judge module: the judge answers isError and onFailure
      // "block" must stop the call.
      await rm(join(installed.installPath, 'dist', 'judge.cjs'));
      const bundleRemoved = await session(installed, 'plugin-strict-removed', managedRepoTree, () => [
        commit,
      ]);
      return { installed, managed, bundleRemoved };
    }),
    installPlugin(source, 'roseline-gate').then(async (installed) => ({
      installed,
      session: await session(
        installed,
        'plugin-roseline',
        csharpTree,
        (project) => {
          const read: ToolCall = { name: 'Read', input: { file_path: csharpFile(project) } };
          return [read, aTurnLater, read, read];
        },
        { env: { PATH: pathWith(dnx) } },
      ),
    })),
  ]);
});

describe('the plugins install from the marketplace', () => {
  test.for(['exit-status-guard', 'git-write-gate', 'git-write-gate-strict', 'roseline-gate'] as const)(
    '%s: installed at its package version, into the scratch HOME',
    (plugin) => {
      const installed = installs()[plugin];
      const guard = guardOfPlugin(plugin);
      const version = String(requireKit(source).packages.find((p) => p.name === `@kit/${guard}`)?.version);
      expect(installed.outputs.install.stdout).toContain(
        `Successfully installed plugin: ${plugin}@${MARKETPLACE}`,
      );
      // Its dependency, the one judge every guard plugin's handler asks, comes with it.
      expect(installed.outputs.install.stdout).toContain('(+ 1 dependency: kit-judge)');
      expect(installed.version).toBe(version);
      expect(installed.installPath).toBe(
        join(installed.home, '.claude', 'plugins', 'cache', MARKETPLACE, plugin, version),
      );
      // The npm package's own files: the plugin manifest and the bundle it runs.
      const manifest = JSON.parse(
        readFileSync(join(installed.installPath, '.claude-plugin', 'plugin.json'), 'utf8'),
      );
      expect(manifest).toMatchObject({ name: guard, version });
    },
  );
});

describe('exit-status-guard@kit', () => {
  test('denies `make test | tail -5`: the reason reaches the model, the run lists the denial, make never ran for it', () => {
    const { run, project } = exitStatus.session;
    const [piped] = run.toolResults;
    expect(piped?.input.command, describeRun(run)).toBe('make test | tail -5');
    expect(piped?.isError).toBe(true);
    expect(piped?.text).toMatch(/^PreToolUse:Bash hook error: exit-status-guard: `make test`/);
    expect(deniedIds(run)).toEqual([piped?.toolUseId]);
    expect(makeTestRuns(project)).toBe(1); // the rewrite's run, below
    expect(existsSync(join(project, '.claude'))).toBe(false); // no settings of the project's own
  });

  test('the rewrite the reason suggests runs as written; `touch ran.txt` runs', () => {
    const { run, project } = exitStatus.session;
    const [piped, rewrite, touch] = run.toolResults;
    expect(piped?.text, describeRun(run)).toContain(suggestedRewrite);
    expect(rewrite?.isError).toBe(false);
    expect(rewrite?.text).toContain('EXIT=0');
    expect(touch?.isError).toBe(false);
    expect(existsSync(join(project, 'ran.txt'))).toBe(true);
  });
});

describe('git-write-gate@kit', () => {
  test('in a managed repository: `git commit` is denied and does not land; the escape the reason offers lands', () => {
    const { run, project } = gate.managed;
    const [denied, escaped] = run.toolResults;
    expect(denied?.isError, describeRun(run)).toBe(true);
    expect(denied?.text).toMatch(/^PreToolUse:Bash hook error: git-write-gate: /);
    expect(denied?.text).toContain(escapedCommit.input.command as string);
    expect(deniedIds(run)).toEqual([denied?.toolUseId]);
    expect(escaped?.isError).toBe(false);
    expect(git(project, 'log', '--format=%s').trim().split('\n')).toEqual(['e2e: a commit', 'initial']);
  });

  test('in a repository it does not manage, the same commit lands', () => {
    const { run, project } = gate.plain;
    expect(
      run.toolResults.map((result) => result.isError),
      describeRun(run),
    ).toEqual([false]);
    expect(run.permissionDenials).toEqual([]);
    expect(commitCount(project)).toBe(2);
  });
});

describe('git-write-gate-strict@kit', () => {
  test('refuses the command it cannot judge, through the judge asked in strict mode, and denies the commit', () => {
    const { run, project } = strict.managed;
    const [refused, denied] = run.toolResults;
    expect(refused?.isError, describeRun(run)).toBe(true);
    expect(refused?.text, describeRun(run)).toMatch(
      /^PreToolUse:Bash hook error: git-write-gate: cannot judge/,
    );
    expect(refused?.text).toContain('(strict mode)');
    expect(denied?.text).toMatch(/^PreToolUse:Bash hook error: git-write-gate: /);
    expect(deniedIds(run)).toEqual([refused?.toolUseId, denied?.toolUseId]);
    expect(commitCount(project)).toBe(1);
  });

  test("only the entry's strict handler runs: the package's hooks/hooks.json handler does not run beside it", () => {
    const { run } = strict.managed;
    expect(hookStarts(run), describeRun(run)).toHaveLength(run.toolResults.length);
  });

  test('with the judge module gone from the installed copy, onFailure "block" blocks the call (fails closed)', () => {
    const { run, project } = strict.bundleRemoved;
    const [blocked] = run.toolResults;
    expect(blocked?.isError, describeRun(run)).toBe(true);
    // The host keeps the judge's isError text from the model (it may come from the server).
    expect(blocked?.text, describeRun(run)).toMatch(
      /^PreToolUse:Bash hook error: \[plugin:kit-judge:judge\/judge\]: failed; blocking because onFailure is "block"/,
    );
    expect(deniedIds(run)).toEqual([blocked?.toolUseId]);
    expect(commitCount(project)).toBe(1);
  });
});

describe('roseline-gate@kit', () => {
  test('denies a .cs Read with dnx on PATH, returns the file on the identical retry, then denies again', () => {
    const { run, project } = roseline.session;
    const [first, waited, retry, third] = run.toolResults;
    expect(run.toolResults, describeRun(run)).toHaveLength(4);
    expect(waited?.isError, describeRun(run)).toBe(false);
    expect(first?.isError).toBe(true);
    expect(first?.text).toMatch(/^PreToolUse:Read hook error: roseline-gate: /);
    expect(first?.text).toContain(csharpFile(project));
    expect(retry?.isError, describeRun(run)).toBe(false);
    expect(retry?.text).toContain(csharpFileMarker);
    expect(third?.text).toMatch(/^PreToolUse:Read hook error: roseline-gate: /);
    expect(deniedIds(run)).toEqual([first?.toolUseId, third?.toolUseId]);
  });
});
