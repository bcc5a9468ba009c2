import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { tempTree } from '@kit/test-kit';
import { describe, expect, test } from 'vitest';
import { defineGuard, type GuardSpec, none } from '../src/index.ts';

const spec = (packageUrl: string, extra: Partial<GuardSpec> = {}): GuardSpec => ({
  packageUrl,
  name: 'demo-guard',
  description: 'a demo',
  matcher: 'Bash',
  switches: [],
  evaluate: () => none(),
  positiveControl: async () => ({ payload: {} }),
  ...extra,
});
const moduleIn = (root: string, file: string): string => pathToFileURL(join(root, file)).href;

describe('defineGuard derives the version and the bundle from the package, once', () => {
  const root = tempTree({ 'package.json': '{"name":"@x/demo-guard","version":"1.2.3"}' });
  test.for(['src/guard.ts', 'dist/cli.js'])('from %s', (file) => {
    const guard = defineGuard(spec(moduleIn(root, file)));
    expect([guard.version, guard.bundle]).toEqual(['1.2.3', join(root, 'dist', 'hook.cjs')]);
    expect('packageUrl' in guard).toBe(false);
  });
  test('explain payloads from the matcher: a Bash command, or a Read of the path from the cwd', () => {
    expect(defineGuard(spec(moduleIn(root, 'src/guard.ts'))).payloadFor('ls | tail', '/p')).toEqual({
      session_id: 'explain',
      cwd: '/p',
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'ls | tail' },
    });
    const read = defineGuard(spec(moduleIn(root, 'src/guard.ts'), { matcher: 'Read' }));
    expect(read.payloadFor('src/App.cs', '/p').tool_input).toEqual({ file_path: join('/p', 'src/App.cs') });
  });
  test('a payloadFor of its own wins', () => {
    const own = defineGuard(spec(moduleIn(root, 'src/guard.ts'), { payloadFor: () => ({ own: true }) }));
    expect(own.payloadFor('x', '/p')).toEqual({ own: true });
  });
});

describe('defineGuard throws a TypeError at the programmer', () => {
  test('no package.json one folder up', () => {
    const bare = tempTree({ 'src/': '' });
    expect(() => defineGuard(spec(moduleIn(bare, 'src/guard.ts')))).toThrow(
      new RegExp(
        `^defineGuard\\(demo-guard\\): cannot read the version from ${join(bare, 'package.json')} \\(`,
      ),
    );
    expect(() => defineGuard(spec(moduleIn(bare, 'src/guard.ts')))).toThrow(TypeError);
  });
  test.for([
    ['no version', '{"name":"x"}', 'undefined'],
    ['an empty version', '{"version":""}', '""'],
    ['a numeric version', '{"version":1}', '1'],
  ])('%s', ([, manifest, shown]) => {
    const root = tempTree({ 'package.json': manifest as string });
    expect(() => defineGuard(spec(moduleIn(root, 'src/guard.ts')))).toThrow(
      `defineGuard(demo-guard): ${join(root, 'package.json')} has no "version" string, got ${shown}`,
    );
  });
  test('not a file URL', () => {
    expect(() => defineGuard(spec('src/guard.ts'))).toThrow(TypeError);
  });
  test('a matcher with no payload builder and no payloadFor', () => {
    const root = tempTree({ 'package.json': '{"version":"1.0.0"}' });
    expect(() => defineGuard(spec(moduleIn(root, 'src/guard.ts'), { matcher: 'Grep' }))).toThrow(
      'defineGuard(demo-guard): no payload builder for the matcher "Grep"; give `payloadFor` (explain\'s synthetic payload)',
    );
  });
});
