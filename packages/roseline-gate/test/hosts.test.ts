import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { hostAdapters, readPayload } from '@kit/gate-approval';
import { runHookCommand, tempDir, tempTree } from '@kit/test-kit';
import { describe, expect, test } from 'vitest';
import { escapeQuietMs } from '../src/escape.ts';
import { guardDefinition } from '../src/guard.ts';
import { stubLauncherFolder } from './helpers.ts';

// Codex CLI has no file-read tool (its model reads with the shell), so only these two can run this gate.
const hosts = ['gemini', 'copilot'] as const;

/** The built bundle as each host's installed command starts it, a stub dnx on PATH and a temp folder of its own. */
function runAs(host: (typeof hosts)[number], payload: unknown, temp: string) {
  return runHookCommand(
    { command: process.execPath, args: [guardDefinition.bundle, '--host', host] },
    payload,
    { env: { PATH: stubLauncherFolder(), TMPDIR: temp, TEMP: temp, TMP: temp }, timeoutMs: 10_000 },
  );
}

describe.for(hosts)('the bundle with --host %s', (host) => {
  test('a .cs Read in a marked project is denied in the host’s dialect, then the identical retry passes', async () => {
    const root = tempTree({ 'App.csproj': '', 'src/Widget.cs': '' });
    const temp = tempDir('rg-hosts-tmp');
    const payload = hostAdapters[host].payloadOf(
      readPayload(path.join(root, 'src', 'Widget.cs'), { cwd: root, sessionId: 's1' }),
    );
    const first = runAs(host, payload, temp);
    expect([first.exitCode, first.stderr]).toEqual([0, '']);
    expect(hostAdapters[host].isDenyOutput(first.stdout), first.stdout).toBe(true);
    expect(first.stdout).toContain('roseline-gate: ');
    // A retry is a Read a model turn later: one that finds the marker quiet for escapeQuietMs.
    await sleep(escapeQuietMs + 200);
    expect(runAs(host, payload, temp)).toEqual({ exitCode: 0, stdout: '', stderr: '' });
  });
  test('a relative path, as these hosts send it, is resolved against the cwd', () => {
    const root = tempTree({ 'App.csproj': '', 'src/Widget.cs': '' });
    const payload = hostAdapters[host].payloadOf(
      readPayload('src/Widget.cs', { cwd: root, sessionId: 's2' }),
    );
    const run = runAs(host, payload, tempDir('rg-hosts-tmp'));
    expect(hostAdapters[host].isDenyOutput(run.stdout), run.stdout).toBe(true);
    expect(run.stdout).toContain(path.join(root, 'src', 'Widget.cs'));
  });
  test('a Read of a file that is not C#: nothing, exit 0', () => {
    const root = tempTree({ 'App.csproj': '', 'notes.md': '' });
    const payload = hostAdapters[host].payloadOf(
      readPayload(path.join(root, 'notes.md'), { cwd: root, sessionId: 's1' }),
    );
    expect(runAs(host, payload, tempDir('rg-hosts-tmp'))).toEqual({ exitCode: 0, stdout: '', stderr: '' });
  });
});
