// `install --strict` is all of strict mode: "onFailure": "block" AND the strict switch, which rides
// as `--strict` after the bundle (strict-arg.ts). doctor names both halves, and warns of one alone
// (an install from before the switch rode along); uninstall takes the handler, the flag with it.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempTree } from '@kit/test-kit';
import { describe, expect, test } from 'vitest';
import { strictStateOf } from '../src/cli/strict-state.ts';
import { protocolFromArgs } from '../src/hosts/host-argument.ts';
import { isStrictArg, strictRuntime, withoutStrictFlag } from '../src/strict-arg.ts';
import { deny } from '../src/verdict.ts';
import { cli, makeGuard } from './cli-harness.ts';

const guard = makeGuard();
const bundleArg = '${CLAUDE_PROJECT_DIR}/.claude/hooks/example-guard.mjs';
const settingsOf = (root: string) => join(root, '.claude', 'settings.json');
const handlerOf = (root: string) =>
  JSON.parse(readFileSync(settingsOf(root), 'utf8')).hooks.PreToolUse[0].hooks[0] as Record<string, unknown>;

describe('strictRuntime: the flag sets the switch, its absence changes nothing', () => {
  const runtime = { env: { TAGOUT_HOOKS_STRICT: 'no', HOME: '/h' }, raw: '' };
  test.for([
    [['/b.cjs', '--strict'], '1'],
    [['/b.cjs', '--host', 'claude', '--strict'], '1'],
    [['/b.cjs'], 'no'],
    [['/b.cjs', '--monitor'], 'no'],
    [['/b.cjs', '--strict=1'], 'no'], // not the flag install writes
  ] as const)('%j -> %s', ([argv, value]) => {
    expect(strictRuntime(runtime, argv).env.TAGOUT_HOOKS_STRICT).toBe(value);
    expect(strictRuntime(runtime, argv).env.HOME).toBe('/h');
  });
  test('the runtime is the same object without the flag, and the caller`s env is never written', () => {
    expect(strictRuntime(runtime, [])).toBe(runtime);
    strictRuntime(runtime, ['--strict']);
    expect(runtime.env.TAGOUT_HOOKS_STRICT).toBe('no');
    expect(isStrictArg(['--strict'])).toBe(true);
    expect(withoutStrictFlag(['--host', 'codex', '--strict'])).toEqual(['--host', 'codex']);
  });
});

test('--strict among the arguments keeps the host the others name', () => {
  const verdict = deny('example-guard', 'example-guard: no.');
  expect(protocolFromArgs(['--strict']).encode(verdict)).toEqual(protocolFromArgs([]).encode(verdict));
  expect(protocolFromArgs(['--host', 'codex', '--strict']).encode(verdict)).toEqual(
    protocolFromArgs(['--host', 'codex']).encode(verdict),
  );
  // positive control: an argument no one reads still silences the protocol
  expect(protocolFromArgs(['--stric']).encode(verdict).stdout).toBe('');
});

describe('strictStateOf: both halves, one, or none', () => {
  test.for([
    [{ args: ['/b', '--strict'], onFailure: 'block' }, 'strict'],
    [{ args: ['/b'], onFailure: 'block' }, 'block-only'],
    [{ args: ['/b', '--strict'] }, 'switch-only'],
    [{ args: ['/b', '--monitor'] }, 'default'],
    [{ command: 'node /b --strict' }, 'default'], // shell form: install never writes it
  ] as const)('%j -> %s', ([handler, state]) => expect(strictStateOf(handler)).toBe(state));
});

// Each doctor runs the positive control: seconds on a loaded machine.
describe('install --strict, doctor, uninstall', { timeout: 120_000 }, () => {
  test('doctor names both halves; a strict install promoted from --monitor keeps one handler', async () => {
    const root = tempTree();
    const home = tempTree();
    await cli(guard, ['install', '--project', '--monitor'], { cwd: root, home });
    expect((await cli(guard, ['install', '--project', '--strict'], { cwd: root, home })).code).toBe(0);
    expect(handlerOf(root)).toMatchObject({ args: [bundleArg, '--strict'], onFailure: 'block' });
    const doctor = await cli(guard, ['doctor', '--project'], { cwd: root, home });
    expect(doctor.code).toBe(0);
    expect(doctor.stdout).toContain(
      'timeout 5 s, strict (onFailure block, TAGOUT_HOOKS_STRICT through --strict)',
    );
    expect(doctor.stdout).not.toContain('half of strict mode');
    const uninstalled = await cli(guard, ['uninstall', '--project'], { cwd: root, home });
    expect(uninstalled.code).toBe(0);
    expect(uninstalled.stdout).toContain('(removed: it held only this handler)');
    expect(existsSync(settingsOf(root))).toBe(false);
  });

  test('an entry with onFailure block alone (an older --strict): doctor warns and says what completes it', async () => {
    const root = tempTree();
    const home = tempTree();
    await cli(guard, ['install', '--project', '--strict'], { cwd: root, home });
    const document = JSON.parse(readFileSync(settingsOf(root), 'utf8'));
    document.hooks.PreToolUse[0].hooks[0].args = [bundleArg];
    writeFileSync(settingsOf(root), JSON.stringify(document, null, 2));
    const doctor = await cli(guard, ['doctor', '--project'], { cwd: root, home });
    expect(doctor.code).toBe(0);
    expect(doctor.stdout).toContain('onFailure block without --strict (half of strict mode)');
    expect(doctor.stdout).toContain(
      'warn this handler has half of strict mode (the guard judges without TAGOUT_HOOKS_STRICT unless the session sets it): `example-guard install --project --strict` writes both halves',
    );
  });

  test('a plain install: no strict words at all', async () => {
    const root = tempTree();
    const home = tempTree();
    await cli(guard, ['install', '--project'], { cwd: root, home });
    const doctor = await cli(guard, ['doctor', '--project'], { cwd: root, home });
    expect(doctor.code).toBe(0);
    expect(doctor.stdout).not.toMatch(/strict/);
  });
});
