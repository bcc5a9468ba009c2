import { mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tempDir } from '@kit/test-kit';
import { describe, expect, test } from 'vitest';
import { fileSystemContext } from '../src/context.ts';

// The real store's contract, one call at a time: the escape's "exactly one caller" rests on it.
function store(options: { clock?: () => number } = {}) {
  const temp = tempDir('rg-store');
  const context = fileSystemContext({
    env: {},
    cwd: temp,
    tempFolder: temp,
    ...(options.clock ? { now: options.clock } : {}),
  });
  const marker = path.join(temp, 'roseline-gate', 'session', 'marker.json');
  const left = () => readdirSync(path.dirname(marker)).sort();
  return { context, marker, temp, left };
}

describe('createMarker is exclusive', () => {
  test('the first call creates it (folders too), the second is told it exists and changes nothing', () => {
    const { context, marker, left } = store({ clock: () => 1_700_000_000_000 });
    expect(context.createMarker(marker, 'first\n')).toBe('created');
    expect(context.createMarker(marker, 'second\n')).toBe('exists');
    expect(readFileSync(marker, 'utf8')).toBe('first\n');
    expect(left()).toEqual(['marker.json']);
    expect(context.readMarker(marker)).toEqual({
      ok: true,
      value: { text: 'first\n', touchedAt: 1_700_000_000_000 },
    });
  });

  test.skipIf(process.platform === 'win32')('owner-only: the folder 0700, the file 0600', () => {
    const { context, marker } = store();
    context.createMarker(marker, 'x\n');
    expect(statSync(path.dirname(marker)).mode & 0o777).toBe(0o700);
    expect(statSync(marker).mode & 0o777).toBe(0o600);
  });

  test('a folder that cannot be made: failed', () => {
    const { context, temp } = store();
    writeFileSync(path.join(temp, 'blocker'), '');
    expect(context.createMarker(path.join(temp, 'blocker', 'm.json'), 'x\n')).toBe('failed');
  });
});

describe('claimMarker: exactly one caller gets it', () => {
  test('the first claim has the text and time, the second finds it gone; nothing is left behind', () => {
    let clock = 1_700_000_000_000;
    const { context, marker, left } = store({ clock: () => clock });
    context.createMarker(marker, 'armed\n');
    clock += 5_000;
    expect(context.claimMarker(marker)).toEqual({
      ok: true,
      value: { text: 'armed\n', touchedAt: 1_700_000_000_000 },
    });
    expect(context.claimMarker(marker)).toMatchObject({ ok: false, reason: 'gone' });
    expect(left()).toEqual([]);
  });
});

describe('replaceMarker and touchMarker', () => {
  test('replace puts a whole new file in place and leaves no staging file', () => {
    let clock = 1_700_000_000_000;
    const { context, marker, left } = store({ clock: () => clock });
    context.createMarker(marker, 'old\n');
    clock += 60_000;
    expect(context.replaceMarker(marker, 'new\n')).toBe(true);
    expect(context.readMarker(marker)).toEqual({ ok: true, value: { text: 'new\n', touchedAt: clock } });
    expect(left()).toEqual(['marker.json']);
  });

  test('replace over a folder fails and leaves no staging file', () => {
    const { context, marker, left } = store();
    mkdirSync(path.join(marker, 'inside'), { recursive: true });
    expect(context.replaceMarker(marker, 'new\n')).toBe(false);
    expect(left()).toEqual(['marker.json']);
  });

  test('touch moves the time and keeps the text; a marker that is gone is fine', () => {
    let clock = 1_700_000_000_000;
    const { context, marker } = store({ clock: () => clock });
    context.createMarker(marker, '{"deniedAt":1}\n');
    clock += 700;
    context.touchMarker(marker);
    expect(context.readMarker(marker)).toEqual({
      ok: true,
      value: { text: '{"deniedAt":1}\n', touchedAt: clock },
    });
    context.claimMarker(marker);
    expect(() => context.touchMarker(marker)).not.toThrow();
  });
});

describe('with no clock given, the file system stamps each write as it happens', () => {
  test('create and touch are stamped now, not at a time read earlier', () => {
    const { context, marker } = store();
    const before = Date.now();
    context.createMarker(marker, '{"deniedAt":1}\n');
    const created = context.readMarker(marker);
    expect(created.ok && created.value.touchedAt).toBeGreaterThanOrEqual(before - 50);
    // Backdate it by hand, as a write stamped with an old clock reading would have: a touch brings it to now.
    utimesSync(marker, (before - 60_000) / 1000, (before - 60_000) / 1000);
    context.touchMarker(marker);
    const touched = context.readMarker(marker);
    expect(touched.ok && touched.value.touchedAt).toBeGreaterThanOrEqual(before - 50);
    expect(touched.ok && touched.value.text).toBe('{"deniedAt":1}\n');
  });
});

describe('readMarker', () => {
  test.for([
    ['nothing there', () => undefined, 'absent'],
    ['a folder', (file: string) => mkdirSync(file, { recursive: true }), 'unreadable'],
    [
      'a file too big to be a marker',
      (file: string) => {
        mkdirSync(path.dirname(file), { recursive: true });
        writeFileSync(file, 'x'.repeat(5_000));
      },
      'unreadable',
    ],
  ] as [string, (file: string) => void, string][])('%s: %s', ([, make, reason]) => {
    const { context, marker } = store();
    make(marker);
    expect(context.readMarker(marker)).toMatchObject({ ok: false, reason });
  });
});
