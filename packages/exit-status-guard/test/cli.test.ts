import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '@kit/gate-approval';
import { describe, expect, test } from 'vitest';
import packageJson from '../package.json' with { type: 'json' };
import { guardDefinition } from '../src/guard.ts';
import { builtCli } from './built.ts';
import { recordingIO } from './cli-io.ts';

describe('the shared CLI, in process', () => {
  test('--version', async () => {
    const io = recordingIO();
    expect(await runCli(guardDefinition(), ['--version'], io)).toBe(0);
    expect(io.out().trim()).toBe(packageJson.version);
  });
  test('--help lists friction-report, registry and the registry variables', async () => {
    const io = recordingIO();
    await runCli(guardDefinition(), ['--help'], io);
    expect(io.out()).toContain('friction-report');
    expect(io.out()).toContain('registry');
    expect(io.out()).toContain('EXIT_STATUS_GUARD_REGISTRY');
  });
  test('explain denies the positive control and names the rule', async () => {
    const io = recordingIO();
    await runCli(guardDefinition(), ['explain', 'make check 2>&1 | tail -30; echo "EXIT=$?"', '--json'], io);
    expect(JSON.parse(io.out())).toMatchObject({ verdict: 'deny', rule: 'piped-gate' });
  });
  test('explain of a silent command', async () => {
    const io = recordingIO();
    await runCli(guardDefinition(), ['explain', 'make check && git push', '--json'], io);
    expect(JSON.parse(io.out())).toMatchObject({ verdict: 'none' });
  });

  const project = mkdtempSync(join(tmpdir(), 'esg-cli-'));
  mkdirSync(join(project, '.claude'));
  writeFileSync(
    join(project, '.claude', 'exit-status-guard.json'),
    JSON.stringify({ gates: ['^mytool(', '^ok( |$)'] }),
  );
  test('registry prints the sources and every dropped pattern', async () => {
    const io = recordingIO({ cwd: project });
    await runCli(guardDefinition(), ['registry'], io);
    expect(io.out()).toContain('base:    shipped');
    expect(io.out()).toContain(`project: ${join(project, '.claude', 'exit-status-guard.json')}`);
    expect(io.out()).toMatch(/problem: .*gates "\^mytool\(": dropped/);
  });
  test('registry --json', async () => {
    const io = recordingIO({ cwd: project });
    await runCli(guardDefinition(), ['registry', '--json'], io);
    const json = JSON.parse(io.out());
    expect(json.problems).toHaveLength(1);
    expect(json.patterns.gates).toContain('^ok( |$)');
  });
  test('doctor reports a dropped pattern and an unreadable registry override', async () => {
    const checks = await guardDefinition().doctorChecks?.(
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
  const home = mkdtempSync(join(tmpdir(), 'esg-home-'));
  const project = mkdtempSync(join(tmpdir(), 'esg-proj-'));
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
    const settings = JSON.parse(readFileSync(join(project, '.claude', 'settings.json'), 'utf8'));
    const handler = settings.hooks.PreToolUse[0];
    expect(handler.matcher).toBe('Bash');
    expect(handler.hooks[0]).toMatchObject({ type: 'command', command: 'node', args: [bundle] });
    const payload = {
      session_id: 's',
      cwd: project,
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'make test | tail -5' },
    };
    const hook = spawnSync(handler.hooks[0].command, handler.hooks[0].args, {
      input: JSON.stringify(payload),
      encoding: 'utf8',
      env: { ...process.env, CLAUDE_PROJECT_DIR: project },
    });
    expect(hook.status).toBe(0);
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
    const payload = {
      session_id: 's',
      cwd: project,
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'cargo test; git push' },
    };
    const hook = spawnSync(process.execPath, [builtCli, 'hook'], {
      input: JSON.stringify(payload),
      encoding: 'utf8',
      env: { ...process.env, CLAUDE_PROJECT_DIR: project },
    });
    expect(hook.status).toBe(0);
    expect(JSON.parse(hook.stdout).hookSpecificOutput.permissionDecisionReason).toMatch(
      /^exit-status-guard: `cargo test`/,
    );
  });
});
