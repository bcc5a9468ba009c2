import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir, tempTree } from '@kit/test-kit';
import { describe, expect, test } from 'vitest';
import { realContext } from '../src/index.ts';

describe('the real scratchpad probe', () => {
  test.skipIf(process.platform === 'win32')(
    'finds <TMPDIR>/claude-<uid>/<slug>/<session>/scratchpad, and only when it exists',
    () => {
      const tmp = tempDir('esg-tmp');
      const uid = process.getuid?.() ?? 0;
      const context = realContext({ env: { TMPDIR: tmp } });
      expect(context.findScratchpad('sess-1', '/home/u/proj')).toBeNull();
      const pad = join(tmp, `claude-${uid}`, '-home-u-proj', 'sess-1', 'scratchpad');
      mkdirSync(pad, { recursive: true });
      expect(context.findScratchpad('sess-1', '/home/u/proj')).toBe(pad);
      const other = join(tmp, `claude-${uid}`, 'another-slug', 'sess-2', 'scratchpad');
      mkdirSync(other, { recursive: true });
      expect(context.findScratchpad('sess-2', '/home/u/proj')).toBe(other);
    },
  );
});

describe('the real readText: a file, or why not', () => {
  const root = tempTree({ 'a.json': '{}', 'folder/': '' });
  const { readText } = realContext({ env: {} });
  test('a file', () => expect(readText(join(root, 'a.json'))).toEqual({ ok: true, value: '{}' }));
  test('absent', () =>
    expect(readText(join(root, 'none.json'))).toMatchObject({ ok: false, reason: 'absent' }));
  test('there but unreadable', () =>
    expect(readText(join(root, 'folder'))).toMatchObject({ ok: false, reason: 'unreadable' }));
});
