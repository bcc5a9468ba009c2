import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bashPayload, runCli } from '@kit/gate-approval';
import { hookEnv, installedHandler, recordingIO, runHookCommand, tempDir, tempTree } from '@kit/test-kit';
import { describe, expect, test } from 'vitest';
import packageJson from '../package.json' with { type: 'json' };
import { guardDefinition } from '../src/guard.ts';

const builtCli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

describe('the shared CLI, in process', () => {
  test('--version', async () => {
    const io = recordingIO();
    expect(await runCli(guardDefinition, ['--version'], io)).toBe(0);
    expect(io.out().trim()).toBe(packageJson.version);
  });
  test('--help lists friction-report, registry and the registry variables', async () => {
    const io = recordingIO();
    await runCli(guardDefinition, ['--help'], io);
    expect(io.out()).toContain('friction-report');
    expect(io.out()).toContain('registry');
    expect(io.out()).toContain('EXIT_STATUS_GUARD_REGISTRY');
  });
  test('explain denies the positive control and names the rule', async () => {
    const io = recordingIO();
    await runCli(guardDefinition, ['explain', 'make check 2>&1 | tail -30; echo "EXIT=$?"', '--json'], io);
    expect(JSON.parse(io.out())).toMatchObject({ verdict: 'deny', rule: 'piped-gate' });
  });
  test('explain of a silent command', async () => {
    const io = recordingIO();
    await runCli(guardDefinition, ['explain', 'make check && git push', '--json'], io);
    expect(JSON.parse(io.out())).toMatchObject({ verdict: 'none' });
  });

  const project = tempTree({
    '.claude/exit-status-guard.json': JSON.stringify({ gates: ['^mytool(', '^ok( |$)'] }),
  });
  test('registry prints the sources and every dropped pattern', async () => {
    const io = recordingIO({ cwd: project });
    await runCli(guardDefinition, ['registry'], io);
    expect(io.out()).toContain('base:    shipped');
    expect(io.out()).toContain(`project: ${join(project, '.claude', 'exit-status-guard.json')}`);
    expect(io.out()).toMatch(/problem: .*gates "\^mytool\(": dropped/);
  });
  test('registry --json', async () => {
    const io = recordingIO({ cwd: project });
    await runCli(guardDefinition, ['registry', '--json'], io);
    const json = JSON.parse(io.out());
    expect(json.problems).toHaveLength(1);
    expect(json.patterns.gates).toContain('^ok( |$)');
  });
  test('doctor reports a dropped pattern and an unreadable registry override', async () => {
    const checks = await guardDefinition.doctorChecks?.(
      recordingIO({ cwd: project, env: { EXIT_STATUS_GUARD_REGISTRY: join(project, 'missing.json') } }),
    );
    expect(checks).toEqual([
      expect.stringMatching(
        /EXIT_STATUS_GUARD_REGISTRY=.*missing\.json does not exist; it counts as an empty registry/,
      ),
      expect.stringMatching(/\^mytool\(/),
    ]);
  });
});

describe('the built bin, as a process', () => {
  const home = tempDir('esg-home');
  const project = tempDir('esg-proj');
  const run = (...args: string[]) =>
    spawnSync(process.execPath, [builtCli, ...args], {
      cwd: project,
      env: { ...process.env, HOME: home, USERPROFILE: home },
      encoding: 'utf8',
    });

  test('install --project copies the bundle and wires it; the installed hook denies make test | tail -5', () => {
    const install = run('install', '--project');
    expect(install.status, install.stderr).toBe(0);
    const bundle = join(project, '.claude', 'hooks', 'exit-status-guard.cjs');
    expect(existsSync(bundle)).toBe(true);
    const settingsFile = join(project, '.claude', 'settings.json');
    expect(JSON.parse(readFileSync(settingsFile, 'utf8')).hooks.PreToolUse[0].matcher).toBe('Bash');
    const handler = installedHandler(settingsFile, 'Bash');
    expect(handler).toMatchObject({
      type: 'command',
      command: 'node',
      args: ['${CLAUDE_PROJECT_DIR}/.claude/hooks/exit-status-guard.cjs'],
    });
    const payload = bashPayload('make test | tail -5', { cwd: project, sessionId: 's' });
    const hook = runHookCommand(handler, payload, { env: hookEnv({ CLAUDE_PROJECT_DIR: project }) });
    expect(hook.exitCode).toBe(0);
    expect(JSON.parse(hook.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
  });
  test('doctor --project passes once installed', () => {
    const doctor = run('doctor', '--project');
    expect(doctor.stdout + doctor.stderr).toContain('positive control denied');
    expect(doctor.status).toBe(0);
  });
  test('uninstall --project removes it', () => {
    expect(run('uninstall', '--project').status).toBe(0);
    expect(existsSync(join(project, '.claude', 'hooks', 'exit-status-guard.cjs'))).toBe(false);
  });
  test('hook reads stdin like the bundle', () => {
    const payload = bashPayload('cargo test; git push', { cwd: project, sessionId: 's' });
    const hook = runHookCommand({ command: process.execPath, args: [builtCli, 'hook'] }, payload, {
      env: hookEnv({ CLAUDE_PROJECT_DIR: project }),
    });
    expect(hook.exitCode).toBe(0);
    expect(JSON.parse(hook.stdout).hookSpecificOutput.permissionDecisionReason).toMatch(
      /^exit-status-guard: `cargo test`/,
    );
  });
});
