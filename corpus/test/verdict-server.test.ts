import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import * as exitStatusGuard from '@kit/exit-status-guard';
import { type Evaluate, type FailCause, type HookRuntime, runHook } from '@kit/fail-open';
import { bashPayload, claudeCode, type HookInput, type Verdict } from '@kit/gate-approval';
import * as gitWriteGate from '@kit/git-write-gate';
import { hookEnv, removeTree, runHookFile, tempDir, tempRepo } from '@kit/test-kit';
import { describe, expect, test } from 'vitest';
import { readCommands } from '../src/commands.ts';

// The verdict server answers real commands exactly as the hook answers them in process. Every
// corpus command the situation's recorded verdict denies, refuses or cannot judge, and every k-th
// of the others, is sent to the guard's built bundle as the host sends it, with the server on;
// each answer is compared byte for byte with runHook over the library's evaluate in this process,
// in the same environment and folder. The trace must show the server answering.
const silentSample = 50;
const require = createRequire(import.meta.url);
const bundleOf = (name: string): string =>
  join(require.resolve(`@kit/${name}/package.json`), '..', 'dist', 'hook.cjs');

interface ServedGuard {
  name: string;
  situation: string; // its name in verdicts.jsonl
  env?: Record<string, string>;
  evaluate: Evaluate<HookInput, Verdict>;
  onFailOpen?: (cause: FailCause, runtime: HookRuntime) => Verdict | undefined;
  project: () => string; // the folder the calls come from
}

const guards: ServedGuard[] = [
  {
    name: 'exit-status-guard',
    situation: 'exit-status-guard',
    evaluate: (input, runtime) => exitStatusGuard.evaluate(input, exitStatusGuard.realContext(runtime)),
    project: () => tempDir('kit-served-esg'),
  },
  ...[false, true].map((strict) => ({
    name: 'git-write-gate',
    situation: strict ? 'git-write-gate managed strict' : 'git-write-gate managed',
    ...(strict ? { env: { TAGOUT_HOOKS_STRICT: '1' } } : {}),
    evaluate: (input: HookInput, runtime: HookRuntime) =>
      gitWriteGate.evaluate(input, gitWriteGate.realContext(runtime)),
    onFailOpen: gitWriteGate.onFailOpen,
    // A managed repository: its profile is what makes the gate judge.
    project: () =>
      tempRepo({ [gitWriteGate.profileRelativePath]: '---\nname: repo-profile\n---\n' }, 'kit-served-gwg'),
  })),
];

// The ids whose recorded verdict in the situation is not silence.
function judgedIds(situation: string): Set<string> {
  const rows = readFileSync(new URL('../verdicts.jsonl', import.meta.url), 'utf8')
    .trimEnd()
    .split('\n');
  const judged = new Set<string>();
  for (const line of rows) {
    const row = JSON.parse(line) as { id: string; verdicts: Record<string, { verdict: string }> };
    const verdict = row.verdicts[situation]?.verdict;
    if (verdict !== undefined && verdict !== 'none') judged.add(row.id);
  }
  return judged;
}

function sample<T>(rows: T[], size: number): T[] {
  const step = Math.max(1, Math.floor(rows.length / size));
  return rows.filter((_row, index) => index % step === 0).slice(0, size);
}

const discard = (): Writable => new Writable({ write: (_chunk, _encoding, done) => done() });

describe.each(guards)('the verdict server of $name ($situation)', (guard) => {
  test('answers real commands as the hook does in process', async () => {
    const project = guard.project();
    const temp = tempDir('kit-served-tmp');
    const trace = join(temp, 'trace.jsonl');
    const env = hookEnv({
      TMPDIR: temp,
      KIT_HOOKS_SERVER: 'on',
      KIT_HOOKS_SERVER_IDLE_SECONDS: '60',
      KIT_HOOKS_TRACE: trace,
      CLAUDE_PROJECT_DIR: project,
      ...guard.env,
    });
    const bundle = bundleOf(guard.name);
    const socketFolder = join(temp, `kit-hooks-${process.getuid?.() ?? 'user'}`);
    try {
      // The first call starts the server; wait until it serves (its mailbox there, its start
      // marker gone: the server removes it once it is warm and watching the mailbox).
      runHookFile(bundle, bashPayload('true', { cwd: project }), { env, cwd: project });
      const listening = Date.now() + 15_000;
      const serving = (names: string[]): boolean =>
        names.some((name) => name.endsWith('.box')) && !names.some((name) => name.endsWith('.starting'));
      while (!(existsSync(socketFolder) && serving(readdirSync(socketFolder)))) {
        if (Date.now() > listening) throw new Error(`no verdict server listening in ${socketFolder}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      rmSync(trace, { force: true });

      const differences: string[] = [];
      const judged = judgedIds(guard.situation);
      const all = readCommands();
      const commands = [
        ...all.filter((command) => judged.has(command.id)),
        ...sample(
          all.filter((command) => !judged.has(command.id)),
          silentSample,
        ),
      ];
      expect(judged.size).toBeGreaterThan(5); // positive control: the situation's name is right
      for (const command of commands) {
        const payload = JSON.stringify(
          bashPayload(command.command, {
            cwd: project,
            sessionId: 'corpus',
            ...(command.run_in_background ? { runInBackground: true } : {}),
          }),
        );
        const served = runHookFile(bundle, payload, { env, cwd: project });
        const inProcess = await runHook(guard.evaluate, {
          guard: guard.name,
          protocol: claudeCode,
          ...(guard.onFailOpen ? { onFailOpen: guard.onFailOpen } : {}),
          stdinRead: { ok: true, value: payload },
          env: { ...env, KIT_HOOKS_TRACE: undefined },
          stdout: discard(),
          stderr: discard(),
        });
        const got = { exitCode: served.exitCode, stdout: served.stdout, stderr: served.stderr };
        const expected = { exitCode: inProcess.exitCode, stdout: inProcess.stdout, stderr: inProcess.stderr };
        if (JSON.stringify(got) !== JSON.stringify(expected))
          differences.push(
            `${command.id} ${JSON.stringify(command.command)}: ${JSON.stringify(got)} != ${JSON.stringify(expected)}`,
          );
      }
      expect(differences).toEqual([]);

      const paths = readFileSync(trace, 'utf8')
        .trimEnd()
        .split('\n')
        .map((line) => (JSON.parse(line) as { path?: string }).path);
      expect(paths).toHaveLength(commands.length);
      // On a loaded machine a call may time out and answer in process; most must be the server's.
      expect(paths.filter((path) => path === 'server').length).toBeGreaterThan(commands.length * 0.8);
    } finally {
      removeTree(socketFolder); // the server sees its mailbox gone, and exits
    }
  }, 180_000);
});
