import { frameDepth } from '../src/frame-depth.ts';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { hasStructure } from '../src/has-structure.ts';
import { parse } from '../src/parse.ts';
import { corpus } from './corpus.ts';

describe('hasStructure', () => {
  test.for([
    'make check | tail',
    'a && b',
    'a || b',
    'a; b',
    'a &',
    'a\nb',
    'echo $(date)',
    'echo `date`',
    'diff <(a) b',
    'tee >(gzip)',
    '(cd x)',
    'a |& b',
    'echo "a|b"',
  ])('true: %s', (command) => expect(hasStructure(command)).toBe(true));

  test.for([
    'git push origin main',
    'make check',
    'GIT_GATE=off git push',
    'echo "$HOME" > out.log 2>/dev/null',
    '',
    "grep -r 'x' .",
  ])('false: %s', (command) => expect(hasStructure(command)).toBe(false));

  test('never under-inclusive: false on a corpus command means one segment on the main list', () => {
    for (const { command } of corpus) {
      if (hasStructure(command)) continue;
      const outcome = parse(command);
      expect(outcome.ok && outcome.value.segments.every((segment) => frameDepth(segment) === 0)).toBe(true);
      expect(outcome.ok && outcome.value.segments.length <= 1).toBe(true);
    }
  });

  test('a non-string is true (parse says what it is)', () => {
    expect(hasStructure(42 as unknown as string)).toBe(true);
  });
});

// Run in a fresh process on the built package, so no other test has loaded the parser already.
test.for(['index.js', 'index.cjs'])(
  'dist/%s: hasStructure and unwrapLaunchers do not load mvdan-sh; parse does',
  (file) => {
    const built = fileURLToPath(new URL(`../dist/${file}`, import.meta.url));
    const script = `
    const { createRequire } = await import('node:module');
    const require = createRequire(import.meta.url);
    const lib = await import(${JSON.stringify(built)});
    const loaded = () => Object.keys(require.cache).some((key) => key.includes('/mvdan-sh/'));
    lib.hasStructure('git push | tail');
    lib.unwrapLaunchers([{ text: 'sudo', start: 0, end: 4, value: 'sudo', dynamic: false, params: [] }]);
    const before = loaded();
    lib.parse('git push');
    const after = loaded();
    console.log(JSON.stringify([before, after]));
  `;
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
    });
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual([false, true]);
  },
);
