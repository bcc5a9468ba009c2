import { existsSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type HookRun, runHookFile, tempDir, tempTree } from '@kit/test-kit';
import { beforeAll, describe, expect, test } from 'vitest';
import { escapeQuietMs } from '../src/escape.ts';
import { guardDefinition } from '../src/guard.ts';
import { filesBelow, readCall, stubLauncherFolder } from './helpers.ts';

const builtHook = guardDefinition.bundle;

/** The built bundle as the host runs it: JSON on stdin, only the env of the test's making (PATH, temp folder). */
const runBuiltHook = (payload: unknown, env: Record<string, string>) =>
  runHookFile(builtHook, payload, { env, timeoutMs: 10_000 });

/** PATH holding the stub dnx (or an empty folder), and the OS temp folder redirected. */
function hostEnv(options: {
  launcher: boolean;
  temp: string;
  extra?: Record<string, string>;
}): Record<string, string> {
  const bin = options.launcher ? stubLauncherFolder() : tempDir('rg-empty-bin');
  const env: Record<string, string> = {
    PATH: bin,
    TMPDIR: options.temp,
    TEMP: options.temp,
    TMP: options.temp,
    ...options.extra,
  };
  if (process.platform === 'win32') env.PATHEXT = '.COM;.EXE;.BAT;.CMD';
  return env;
}

beforeAll(() => {
  if (!existsSync(builtHook))
    throw new Error(
      `build the package first: ${builtHook} is missing (pnpm --filter @kit/roseline-gate build)`,
    );
});

describe('dist/hook.cjs as a process', () => {
  test('the positive control: a .cs Read is denied with the exact wire JSON, exit 0', () => {
    const root = tempTree({ 'App.csproj': '', 'Program.cs': '' });
    const temp = tempDir('rg-tmp');
    const file = path.join(root, 'Program.cs');
    const r = runBuiltHook(readCall(file, root), hostEnv({ launcher: true, temp }));
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout.endsWith('\n')).toBe(true);
    const output = JSON.parse(r.stdout);
    expect(Object.keys(output)).toEqual(['hookSpecificOutput']);
    expect(output.hookSpecificOutput).toMatchObject({
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
    });
    expect(output.hookSpecificOutput.permissionDecisionReason).toMatch(/^roseline-gate: /);
    expect(output.hookSpecificOutput.permissionDecisionReason).toContain(
      `"project":${JSON.stringify(path.join(root, 'App.csproj'))}`,
    );
    // The marker landed in the redirected temp folder, nowhere else.
    expect(filesBelow(temp)).toHaveLength(1);
  });

  test('deny, pass, deny across three processes, the retry a quiet second after the denial', async () => {
    const root = tempTree({ 'App.csproj': '', 'Program.cs': '' });
    const env = hostEnv({ launcher: true, temp: tempDir('rg-tmp') });
    const payload = readCall(path.join(root, 'Program.cs'), root, 'process-session');
    const outputs: HookRun[] = [];
    for (const pause of [0, escapeQuietMs + 200, 0]) {
      await sleep(pause);
      outputs.push(runBuiltHook(payload, env));
    }
    expect(outputs.map((r) => [r.exitCode, r.stdout === '' ? 'pass' : 'deny'])).toEqual([
      [0, 'deny'],
      [0, 'pass'],
      [0, 'deny'],
    ]);
  });

  test.for([
    ['no dnx on PATH', { launcher: false }],
    ['ROSELINE_GATE=off', { launcher: true, extra: { ROSELINE_GATE: 'off' } }],
  ] as const)('%s: nothing written, exit 0, no marker', ([, options]) => {
    const root = tempTree({ 'App.csproj': '', 'Program.cs': '' });
    const temp = tempDir('rg-tmp');
    const r = runBuiltHook(readCall(path.join(root, 'Program.cs'), root), hostEnv({ ...options, temp }));
    expect([r.exitCode, r.stdout, r.stderr]).toEqual([0, '', '']);
    expect(filesBelow(temp)).toEqual([]);
  });

  test('ROSELINE_GATE=on denies without dnx', () => {
    const root = tempTree({ 'App.csproj': '', 'Program.cs': '' });
    const r = runBuiltHook(
      readCall(path.join(root, 'Program.cs'), root),
      hostEnv({ launcher: false, temp: tempDir('rg-tmp'), extra: { ROSELINE_GATE: 'on' } }),
    );
    expect(r.stdout).toContain('"permissionDecision":"deny"');
  });

  const stdins: [string, (file: string, root: string) => string][] = [
    ['empty', () => ''],
    ['blank', () => ' \n'],
    ['null', () => 'null'],
    ['an array', () => '[]'],
    ['cut JSON', (file, root) => JSON.stringify(readCall(file, root)).slice(0, 40)],
    ['NotebookRead', (file, root) => JSON.stringify({ ...readCall(file, root), tool_name: 'NotebookRead' })],
    [
      'Grep',
      (file, root) =>
        JSON.stringify({ ...readCall(file, root), tool_name: 'Grep', tool_input: { pattern: 'x' } }),
    ],
    [
      'file_path a number',
      (file, root) => JSON.stringify({ ...readCall(file, root), tool_input: { file_path: 1 } }),
    ],
  ];
  test.for(stdins)('stdin %s: no opinion', ([, build]) => {
    const root = tempTree({ 'App.csproj': '', 'Program.cs': '' });
    const temp = tempDir('rg-tmp');
    const r = runBuiltHook(build(path.join(root, 'Program.cs'), root), hostEnv({ launcher: true, temp }));
    expect([r.exitCode, r.stdout, r.stderr]).toEqual([0, '', '']);
    expect(filesBelow(temp)).toEqual([]);
  });

  test('an unwritable temp folder: no opinion', async () => {
    const { writeFileSync } = await import('node:fs');
    const root = tempTree({ 'App.csproj': '', 'Program.cs': '' });
    const blocker = path.join(tempDir('rg-blocked'), 'file');
    writeFileSync(blocker, '');
    const r = runBuiltHook(
      readCall(path.join(root, 'Program.cs'), root),
      hostEnv({ launcher: true, temp: blocker }),
    );
    expect([r.exitCode, r.stdout]).toEqual([0, '']);
  });
});
