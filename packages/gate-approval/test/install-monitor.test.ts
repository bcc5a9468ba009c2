// `install --monitor`: the handler runs the bundle with `--monitor` (judged, recorded, silent), and
// `install` again, without it, promotes the same handler to enforce. Claude Code's wiring only so far.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempTree } from '@kit/test-kit';
import { expect, test } from 'vitest';
import { cli, makeGuard } from './cli-harness.ts';

const guard = makeGuard();
const handlers = (root: string) =>
  JSON.parse(readFileSync(join(root, '.claude', 'settings.json'), 'utf8')).hooks.PreToolUse.flatMap(
    (group: { hooks: unknown[] }) => group.hooks,
  );
const bundleArg = '${CLAUDE_PROJECT_DIR}/.claude/hooks/example-guard.mjs';

test('install --monitor, then install: one handler, monitored, then enforcing', async () => {
  const root = tempTree();
  const home = tempTree();
  const monitored = await cli(guard, ['install', '--project', '--monitor'], { cwd: root, home });
  expect(monitored).toMatchObject({ code: 0, stderr: '' });
  expect(monitored.stdout).toContain('monitor: example-guard judges every call');
  expect(handlers(root)).toEqual([expect.objectContaining({ args: [bundleArg, '--monitor'] })]);
  const enforced = await cli(guard, ['install', '--project'], { cwd: root, home });
  expect(enforced).toMatchObject({ code: 0, stderr: '' });
  expect(enforced.stdout).not.toContain('monitor:');
  expect(handlers(root)).toEqual([expect.objectContaining({ args: [bundleArg] })]);
});

test('--monitor on a host whose wiring does not carry it yet is refused, nothing written', async () => {
  const root = tempTree();
  const result = await cli(guard, ['install', '--project', '--monitor', '--host', 'gemini'], {
    cwd: root,
    home: tempTree(),
  });
  expect(result.code).toBe(1);
  expect(result.stderr).toContain('--monitor is not yet on');
});
