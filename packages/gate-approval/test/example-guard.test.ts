import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hookEnv, installedHandler, runHookCommand, tempTree } from '@kit/test-kit';
import { describe, expect, test } from 'vitest';
import { bashPayload, type DoctorLine, deny } from '../src/index.ts';
import { cli, makeGuard } from './cli-harness.ts';

const guard = makeGuard();
const shred = bashPayload('shred secrets.txt', { cwd: '/tmp' });
const denyLine = `${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'example-guard: use `rm` instead of `shred`' } })}\n`;

/** Runs the installed handler exactly as the host does: command + args from the settings entry, payload on stdin. */
function runInstalledHandler(root: string, payload: unknown, env: Record<string, string> = {}) {
  const handler = installedHandler(join(root, '.claude', 'settings.json'), 'Bash');
  return runHookCommand(handler, payload, {
    env: hookEnv(env),
    projectDir: root,
    timeoutMs: handler.timeout * 1000,
  });
}

describe('the whole path: install --project, the installed command denies, doctor passes', () => {
  const root = tempTree({ 'src/app.ts': '' });
  const home = tempTree();

  test('install', async () => {
    const result = await cli(guard, ['install', '--project'], { cwd: root, home });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`installed example-guard (project scope)`);
  });

  test('the installed command denies its positive control, exactly on the wire', () => {
    expect(runInstalledHandler(root, shred)).toEqual({ exitCode: 0, stdout: denyLine, stderr: '' });
  });

  test.for([
    ['another command', { ...shred, tool_input: { command: 'rm secrets.txt' } }],
    ['another tool', { ...shred, tool_name: 'BashOutput' }],
    ['the switch off', shred, { EXAMPLE_GUARD: 'off' }],
    ['the legacy switch off', shred, { OLD_EXAMPLE_GUARD: 'no' }],
    ['cannot judge', { ...shred, tool_input: { command: 'shred `x`' } }],
    ['garbage stdin', 'shred secrets.txt'],
  ] as const)('and stays silent for %s', ([, payload, env]) => {
    expect(runInstalledHandler(root, payload, env ?? {})).toEqual({ exitCode: 0, stdout: '', stderr: '' });
  });

  test('doctor passes and lists the switches', async () => {
    const result = await cli(guard, ['doctor', '--project'], { cwd: root, home });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('ok   positive control denied through `node ');
    expect(result.stdout).toContain('ok   switch EXAMPLE_GUARD: auto (not set)');
    const withValue = {
      ...guard,
      switches: [{ name: 'EXAMPLE_PATH', values: '<path>', doc: 'a path', kind: 'value' as const }],
    };
    const shown = await cli(withValue, ['doctor', '--project'], {
      cwd: root,
      home,
      env: { EXAMPLE_PATH: '/x.json' },
    });
    expect(shown.stdout).toContain('ok   variable EXAMPLE_PATH: set (EXAMPLE_PATH=/x.json)');
  });

  test("the guard's own lines: ok and warn never fail doctor, a string is a FAIL", async () => {
    const withLines = (lines: DoctorLine[]) => ({ ...guard, doctorChecks: async () => lines });
    const fine = await cli(withLines([{ level: 'ok', text: 'all good' }]), ['doctor', '--project'], {
      cwd: root,
      home,
    });
    expect([fine.code, fine.stderr]).toEqual([0, '']);
    expect(fine.stdout).toContain('\nok   all good\n');
    expect(fine.stdout).toMatch(/is installed and denies its positive control\n$/);
    const warned = await cli(withLines([{ level: 'warn', text: 'worth knowing' }]), ['doctor', '--project'], {
      cwd: root,
      home,
    });
    expect([warned.code, warned.stderr]).toEqual([0, '']);
    expect(warned.stdout).toContain('\nwarn worth knowing\n');
    expect(warned.stdout).toMatch(/denies its positive control \(1 warning above\)\n$/);
    const failed = await cli(
      withLines(['broken', { level: 'warn', text: 'worth knowing' }]),
      ['doctor', '--project'],
      {
        cwd: root,
        home,
      },
    );
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain('\nFAIL broken\nwarn worth knowing\n');
    expect(failed.stderr).toBe('doctor: 1 problem found (the FAIL lines above)\n');
  });

  test('doctor reports a switch that is off, and the control that no longer denies', async () => {
    const result = await cli(guard, ['doctor', '--project'], {
      cwd: root,
      home,
      env: { EXAMPLE_GUARD: 'OFF' },
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('switch EXAMPLE_GUARD: off (EXAMPLE_GUARD=OFF)');
    expect(result.stdout).toMatch(/FAIL the positive control did not deny .*EXAMPLE_GUARD=off is set/);
  });

  test('a broken bundle: doctor fails with a clear line', async () => {
    writeFileSync(join(root, '.claude', 'hooks', 'example-guard.mjs'), 'this is not javascript(\n');
    const result = await cli(guard, ['doctor', '--project'], { cwd: root, home });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /^FAIL the positive control did not deny through the installed command \(exit 1, stdout "", stderr ".*"\)$/m,
    );
    expect(result.stderr).toBe('doctor: 1 problem found (the FAIL lines above)\n');
  });

  test('a missing bundle, a missing entry: doctor says what to run', async () => {
    await cli(guard, ['uninstall', '--project'], { cwd: root, home });
    const result = await cli(guard, ['doctor', '--project'], { cwd: root, home });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /FAIL .*settings\.json does not exist: run `example-guard install --project`/,
    );
  });
});

describe('doctor on a strict install', () => {
  test('a missing bundle also says that every matching call is blocked; a healthy one says nothing of it', async () => {
    const root = tempTree();
    const home = tempTree();
    await cli(guard, ['install', '--project', '--strict'], { cwd: root, home });
    const healthy = await cli(guard, ['doctor', '--project'], { cwd: root, home });
    expect(healthy.code).toBe(0);
    expect(healthy.stdout).not.toContain('blocks every');
    rmSync(join(root, '.claude', 'hooks', 'example-guard.mjs'));
    const broken = await cli(guard, ['doctor', '--project'], { cwd: root, home });
    expect(broken.code).toBe(1);
    expect(broken.stdout).toContain(
      'FAIL this handler has "onFailure": "block" (--strict): until it is fixed, the host blocks every Bash call it matches',
    );
  });
});

// Each row runs doctor, the positive control included: seconds on a loaded machine.
describe('doctor finds a malformed entry, and says which', { timeout: 120_000 }, () => {
  const projectBundle = '${CLAUDE_PROJECT_DIR}/.claude/hooks/example-guard.mjs';
  const handler = (fields: Record<string, unknown>) => ({
    type: 'command',
    command: 'node',
    timeout: 5,
    ...fields,
  });
  test.for([
    [
      'no args',
      [{ type: 'command', command: 'node example-guard.mjs' }],
      [
        /^FAIL the example-guard entry in .* is not the exec form install writes \(.*\): run `example-guard install --project` to upgrade it$/m,
      ],
    ],
    [
      'a bundle elsewhere, missing',
      [handler({ args: ['/nowhere/example-guard.mjs'] })],
      [
        /^FAIL the entry runs \/nowhere\/example-guard\.mjs, not \$\{CLAUDE_PROJECT_DIR\}\/\.claude\/hooks\/example-guard\.mjs: run `example-guard install --project` to upgrade it$/m,
        /^FAIL the bundle \/nowhere\/example-guard\.mjs is missing: run `example-guard install --project`$/m,
      ],
    ],
    [
      'node not on PATH',
      [handler({ command: 'no-such-node-binary', args: [projectBundle] })],
      [/^FAIL `no-such-node-binary` is not on PATH: the host cannot start the hook$/m],
    ],
    [
      'two handlers',
      [handler({ args: [projectBundle] }), handler({ args: [projectBundle] })],
      [/^FAIL 2 example-guard handlers in .*: run `example-guard install --project` to keep one$/m],
    ],
  ] as [string, unknown[], RegExp[]][])('%s', async ([, handlers, lines]) => {
    const text = JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: handlers }] } });
    const seeded = tempTree({
      '.claude/settings.json': text,
      '.claude/hooks/example-guard.mjs': readFileSync(guard.bundle, 'utf8'),
    });
    const result = await cli(guard, ['doctor', '--project'], { cwd: seeded, home: tempTree() });
    expect(result.code).toBe(1);
    for (const line of lines) expect(result.stdout).toMatch(line);
  });

  test("the guard's own checks throw: a FAIL line with the error", async () => {
    const throwing = {
      ...guard,
      doctorChecks: async () => {
        throw new Error('boom');
      },
    };
    const result = await cli(throwing, ['doctor', '--project'], { cwd: tempTree(), home: tempTree() });
    expect(result.stdout).toMatch(/^FAIL the guard's own checks failed: boom$/m);
  });
});

describe('explain', () => {
  const where = { cwd: tempTree(), home: tempTree() };
  test('a deny: verdict, rule and reason', async () => {
    const result = await cli(guard, ['explain', 'shred a.txt'], where);
    expect(result).toEqual({
      code: 0,
      stderr: '',
      stdout: 'verdict: deny\nrule:    no-shred\nreason:  example-guard: use `rm` instead of `shred`\n',
    });
  });
  test('no opinion', async () => {
    expect((await cli(guard, ['explain', 'ls'], where)).stdout).toBe(
      'verdict: none (no opinion: the call goes through the normal permission flow)\n',
    );
  });
  test('cannot judge: why it fails open', async () => {
    expect((await cli(guard, ['explain', 'shred `x`'], where)).stdout).toBe(
      'verdict: cannotJudge (the hook fails open: the call goes through)\ncause:   backticks\n',
    );
  });
  test('--json, --cwd, and the env switches', async () => {
    const result = await cli(guard, ['explain', '--json', 'shred a.txt', '--cwd', 'sub'], where);
    expect(JSON.parse(result.stdout)).toEqual({
      guard: 'example-guard',
      input: 'shred a.txt',
      cwd: join(where.cwd, 'sub'),
      verdict: 'deny',
      rule: 'no-shred',
      reason: 'example-guard: use `rm` instead of `shred`',
    });
    const off = await cli(guard, ['explain', '--json', 'shred a.txt'], {
      ...where,
      env: { EXAMPLE_GUARD: 'off' },
    });
    expect(JSON.parse(off.stdout).verdict).toBe('none');
  });
  test("named fields: what the guard noted and its verdict's own, in --json and as one text line", async () => {
    const noting: typeof guard = {
      ...guard,
      evaluate: (_input, runtime) => {
        runtime.note?.({ precheck: 'gate-word', parser: true, verdict: 'not this one' });
        return deny('example-guard', 'no', 'no-shred', { rewrite: 'rm a.txt' });
      },
    };
    const json = JSON.parse((await cli(noting, ['explain', '--json', 'shred a.txt'], where)).stdout);
    expect(json).toMatchObject({
      verdict: 'deny',
      rule: 'no-shred',
      precheck: 'gate-word',
      parser: true,
      rewrite: 'rm a.txt',
    });
    expect((await cli(noting, ['explain', 'shred a.txt'], where)).stdout).toBe(
      'verdict: deny\nrule:    no-shred\nreason:  example-guard: no\nfields:  {"precheck":"gate-word","parser":true,"rewrite":"rm a.txt"}\n',
    );
  });
  test('a throwing evaluate: fails open with the message', async () => {
    const throwing = {
      ...guard,
      evaluate: () => {
        throw new Error('kaput');
      },
    };
    expect((await cli(throwing, ['explain', 'x'], where)).stdout).toBe(
      'verdict: none (the hook would fail open: the call goes through)\ncause:   evaluate threw: kaput\n',
    );
  });
  test('no argument is an error', async () => {
    expect(await cli(guard, ['explain'], where)).toMatchObject({ code: 1, stdout: '' });
  });
});
