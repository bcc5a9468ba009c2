import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { HookInput } from '@kit/gate-approval';
import { tempDir, tempTree } from '@kit/test-kit';
import { describe, expect, test } from 'vitest';
import { fileSystemContext } from '../src/context.ts';
import {
  escapeMarkerPath,
  escapeQuietMs,
  escapeWindowMs,
  readIdentity,
  sessionMarkerFolder,
} from '../src/escape.ts';
import { evaluate } from '../src/evaluate.ts';
import {
  envWithPath,
  fakeContext,
  filesBelow,
  readCall,
  realFsContext,
  stubLauncherFolder,
} from './helpers.ts';

function project() {
  const root = tempTree({ 'App.csproj': '', 'A.cs': '', 'B.cs': '' });
  return { root, a: path.join(root, 'A.cs'), b: path.join(root, 'B.cs') };
}

describe('the one-shot escape', () => {
  test('deny, pass, deny, pass: an identical retry passes once', () => {
    const { root, a } = project();
    const { context, advance } = realFsContext(envWithPath([stubLauncherFolder()]));
    const kinds: string[] = [];
    for (let i = 0; i < 4; i++) {
      kinds.push(evaluate(readCall(a, root), context).kind);
      advance(1_000);
    }
    expect(kinds).toEqual(['deny', 'none', 'deny', 'none']);
  });

  test('per file: denying A arms nothing for B', () => {
    const { root, a, b } = project();
    const { context, advance } = realFsContext(envWithPath([stubLauncherFolder()]));
    const kinds = [a, b, a, b, a].map((file) => {
      advance(1_000);
      return evaluate(readCall(file, root), context).kind;
    });
    expect(kinds).toEqual(['deny', 'deny', 'none', 'none', 'deny']);
  });

  // The identical Read is the same file_path, offset, limit and pages: a retry that asks for
  // another part of the file neither takes the escape nor uses it up.
  describe('identity: offset, limit and pages', () => {
    const part = (file: string, root: string, fields: Record<string, unknown>) => {
      const call = readCall(file, root);
      return { ...call, tool_input: { ...call.tool_input, ...fields } };
    };
    test.for([
      ['the whole file, then lines 10-29', {}, { offset: 10, limit: 20 }],
      ['lines 10-29, then the whole file', { offset: 10, limit: 20 }, {}],
      ['lines 10-29, then lines 10-', { offset: 10, limit: 20 }, { offset: 10 }],
      ['lines 10-29, then lines 11-30', { offset: 10, limit: 20 }, { offset: 11, limit: 20 }],
      ['the first 20 lines, then lines 1-20 by offset', { limit: 20 }, { offset: 1, limit: 20 }],
      ['pages 1-2, then page 3', { pages: '1-2' }, { pages: '3' }],
      ['the whole file, then pages 1-2', {}, { pages: '1-2' }],
    ] as [string, Record<string, unknown>, Record<string, unknown>][])(
      '%s: the other Read is denied, and the identical retry still passes',
      ([, first, other]) => {
        const { root, a } = project();
        const { context, advance } = realFsContext(envWithPath([stubLauncherFolder()]));
        const kinds = [first, other, first, other].map((fields) => {
          const kind = evaluate(part(a, root, fields), context).kind;
          advance(1_000);
          return kind;
        });
        expect(kinds).toEqual(['deny', 'deny', 'none', 'none']);
      },
    );
    test.for([
      ['the whole file', {}, {}],
      ['lines 10-29', { offset: 10, limit: 20 }, { offset: 10, limit: 20 }],
      ['pages 1-2', { pages: '1-2' }, { pages: '1-2' }],
      ['an absent offset, then a null one', {}, { offset: null }],
      ['fields the escape does not look at', { note: 'first' }, { note: 'second' }],
    ] as [string, Record<string, unknown>, Record<string, unknown>][])(
      'the control, %s: deny, pass, deny',
      ([, first, retry]) => {
        const { root, a } = project();
        const { context, advance } = realFsContext(envWithPath([stubLauncherFolder()]));
        const kinds = [first, retry, retry].map((fields) => {
          const kind = evaluate(part(a, root, fields), context).kind;
          advance(1_000);
          return kind;
        });
        expect(kinds).toEqual(['deny', 'none', 'deny']);
      },
    );
  });

  test("per session: another session's denial is no escape", () => {
    const { root, a } = project();
    const { context, advance } = realFsContext(envWithPath([stubLauncherFolder()]));
    const kinds = ['s1', 's2', 's2', 's1', 's1'].map((session) => {
      advance(1_000);
      return evaluate(readCall(a, root, session), context).kind;
    });
    expect(kinds).toEqual(['deny', 'deny', 'none', 'none', 'deny']);
  });

  test.for([
    [escapeWindowMs, 'none'],
    [escapeWindowMs + 1, 'deny'],
    [10 * escapeWindowMs, 'deny'],
  ] as const)('a retry %i ms after the denial: %s', ([after, want]) => {
    const { root, a } = project();
    const { context, advance } = realFsContext(envWithPath([stubLauncherFolder()]));
    expect(evaluate(readCall(a, root), context).kind).toBe('deny');
    advance(after);
    expect(evaluate(readCall(a, root), context).kind).toBe(want);
  });

  test('a stale marker denies and re-arms: the retry after it passes', () => {
    const { root, a } = project();
    const { context, advance } = realFsContext(envWithPath([stubLauncherFolder()]));
    evaluate(readCall(a, root), context);
    advance(escapeWindowMs * 3);
    expect(evaluate(readCall(a, root), context).kind).toBe('deny');
    advance(5_000);
    expect(evaluate(readCall(a, root), context).kind).toBe('none');
  });

  test.for([
    ['garbage', () => 'not json'],
    [
      'a marker for another Read',
      () =>
        JSON.stringify({
          deniedAt: 1_700_000_000_000,
          identity: readIdentity({ file_path: '/else/where.cs' }),
        }),
    ],
    [
      'a marker from the future',
      (id: string) => JSON.stringify({ deniedAt: 1_800_000_000_000, identity: id }),
    ],
    ['a string timestamp', (id: string) => JSON.stringify({ deniedAt: '1700000000000', identity: id })],
  ] as [string, (id: string) => string][])('%s counts as no marker: deny', ([, text]) => {
    const { root, a } = project();
    const { context, temp, advance } = realFsContext(envWithPath([stubLauncherFolder()]));
    const id = readIdentity({ file_path: a });
    // Written where the gate looks, through its own store (folders included), a while ago.
    const marker = escapeMarkerPath(temp, 'session-1', id, path);
    expect(context.createMarker(marker, text(id))).toBe('created');
    advance(5_000);
    expect(evaluate(readCall(a, root), context).kind).toBe('deny');
  });

  test('the control: a fresh marker written by hand passes', () => {
    const { root, a } = project();
    const { context, temp, advance } = realFsContext(envWithPath([stubLauncherFolder()]));
    const id = readIdentity({ file_path: a });
    const text = JSON.stringify({ deniedAt: context.now(), identity: id });
    context.createMarker(escapeMarkerPath(temp, 'session-1', id, path), text);
    advance(5_000);
    expect(evaluate(readCall(a, root), context).kind).toBe('none');
  });

  test('markers live in <temp>/roseline-gate/<session>/<hash of the path>', () => {
    const { root, a } = project();
    const { context, temp } = realFsContext(envWithPath([stubLauncherFolder()]));
    evaluate(readCall(a, root, 'abc-123'), context);
    const files = filesBelow(temp);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^roseline-gate[\\/]abc-123[\\/][0-9a-f]{32}\.json$/);
    expect(files[0]).not.toContain('A.cs');
  });

  test.for(['../../escape', 'a/b', 'a\\b', '..', '.hidden', 'x'.repeat(200)])(
    'session id %s cannot leave the package folder',
    (session) => {
      const folder = sessionMarkerFolder('/tmp', session, path.posix);
      expect(path.posix.dirname(folder)).toBe('/tmp/roseline-gate');
      expect(path.posix.basename(folder)).toMatch(/^h-[0-9a-f]{32}$/);
    },
  );
});

describe('a burst is one: the escape waits for a quiet second', () => {
  test.for([
    [999, 'deny'],
    [escapeQuietMs, 'none'],
  ] as const)('a retry %i ms after the denial: %s', ([after, want]) => {
    const { root, a } = project();
    const { context, advance } = realFsContext(envWithPath([stubLauncherFolder()]));
    expect(evaluate(readCall(a, root), context).kind).toBe('deny');
    advance(after);
    expect(evaluate(readCall(a, root), context).kind).toBe(want);
  });

  test('each Read of the burst restarts the quiet second; the retry after it passes once', () => {
    const { root, a } = project();
    const { context, advance } = realFsContext(envWithPath([stubLauncherFolder()]));
    const kinds = [0, 600, 600, 600, 999, 1_000, 1_000].map((after) => {
      advance(after);
      return evaluate(readCall(a, root), context).kind;
    });
    expect(kinds).toEqual(['deny', 'deny', 'deny', 'deny', 'deny', 'none', 'deny']);
  });

  test('Reads at one instant, none denied before: all denied, one marker armed', () => {
    const { root, a } = project();
    const { context, temp } = realFsContext(envWithPath([stubLauncherFolder()]));
    const kinds = Array.from({ length: 5 }, () => evaluate(readCall(a, root), context).kind);
    expect(kinds).toEqual(['deny', 'deny', 'deny', 'deny', 'deny']);
    expect(filesBelow(temp)).toHaveLength(1);
  });

  test('Reads at one instant after a denial: one passes, the rest are denied and re-arm', () => {
    const { root, a } = project();
    const { context, advance, temp } = realFsContext(envWithPath([stubLauncherFolder()]));
    evaluate(readCall(a, root), context);
    advance(escapeQuietMs);
    const kinds = Array.from({ length: 5 }, () => evaluate(readCall(a, root), context).kind);
    expect(kinds).toEqual(['none', 'deny', 'deny', 'deny', 'deny']);
    expect(filesBelow(temp)).toHaveLength(1);
    advance(escapeQuietMs);
    expect(evaluate(readCall(a, root), context).kind).toBe('none');
  });
});

// Issue 23: served Reads were judged within a second, those answered in process (their front gave
// up on the server) 1.5-3 s later, past the quiet second by the judge's clock: two passes in a
// burst of 20. The burst is judged by when the host made each call, whichever path judges it.
describe('a burst is one whichever path answers each Read: judged by the call time, not the judge time', () => {
  test.for([
    // [what, each Read of the burst as [called at, judged at] (ms after the first call)]
    [
      'served, then in process late',
      [
        [0, 0],
        [40, 200],
        [80, 400],
        [50, 1_500],
        [60, 2_200],
        [70, 3_000],
      ],
    ],
    [
      'in process late first, then served',
      [
        [0, 1_800],
        [40, 1_900],
        [80, 2_000],
        [50, 2_900],
        [60, 3_000],
      ],
    ],
    [
      'interleaved',
      [
        [0, 100],
        [20, 1_700],
        [40, 300],
        [60, 2_900],
        [80, 600],
      ],
    ],
  ] as [string, [number, number][]][])(
    '%s: every Read of the burst is denied; the retry passes once',
    ([, reads]) => {
      const { root, a } = project();
      const { context, advance } = realFsContext(envWithPath([stubLauncherFolder()]));
      const start = context.now();
      const judge = (calledAt: number) => evaluate(readCall(a, root), { ...context, calledAt }).kind;
      const kinds = [...reads]
        .sort(([, judgedA], [, judgedB]) => judgedA - judgedB)
        .map(([called, judged]) => {
          advance(start + judged - context.now());
          return judge(start + called);
        });
      expect(kinds).toEqual(reads.map(() => 'deny'));
      // The retry: called a model turn after the last answer, judged at once.
      advance(escapeQuietMs);
      expect([judge(context.now()), judge(context.now())]).toEqual(['none', 'deny']);
    },
  );

  test('the positive control: a Read called a quiet second after the burst passes, however late it is judged', () => {
    const { root, a } = project();
    const { context, advance } = realFsContext(envWithPath([stubLauncherFolder()]));
    const start = context.now();
    expect(evaluate(readCall(a, root), { ...context, calledAt: start }).kind).toBe('deny');
    advance(3_000);
    expect(evaluate(readCall(a, root), { ...context, calledAt: start + escapeQuietMs }).kind).toBe('none');
  });
});

// Another call's step slipped in between two steps of this one: the store answers as the race left it.
describe('races between two calls, one step at a time', () => {
  const file = '/r/A.cs';
  const files = ['/r/App.csproj', file];
  const freshMarker = (at: number) => ({
    text: JSON.stringify({ deniedAt: at, identity: readIdentity({ file_path: file }) }),
    touchedAt: at,
  });
  const markerOf = (markers: Map<string, unknown>) => [...markers.keys()];

  test('both find no marker; the other creates it first: denied, one marker, touched now', () => {
    const { context, markers } = fakeContext({ files });
    let creates = 0;
    const racing = {
      ...context,
      createMarker: (marker: string, text: string) => {
        creates++;
        markers.set(marker, freshMarker(context.now() - 10)); // the other call's
        return context.createMarker(marker, text);
      },
    };
    expect(evaluate(readCall(file, '/r'), racing).kind).toBe('deny');
    expect([creates, markers.size]).toEqual([1, 1]);
    expect([...markers.values()][0]?.touchedAt).toBe(context.now());
  });

  test('both find the quiet marker; the other claims it first: denied, and a marker re-armed', () => {
    const { context, markers, advance } = fakeContext({ files });
    evaluate(readCall(file, '/r'), context);
    advance(escapeQuietMs);
    const [marker] = markerOf(markers);
    const racing = {
      ...context,
      claimMarker: (claimed: string) => {
        context.claimMarker(claimed); // the other call's: it passes
        return context.claimMarker(claimed);
      },
    };
    expect(evaluate(readCall(file, '/r'), racing).kind).toBe('deny');
    expect(markers.get(marker as string)?.touchedAt).toBe(context.now());
  });

  test('the marker this call claims was re-armed a moment ago: denied, not passed', () => {
    const { context, markers, advance } = fakeContext({ files });
    evaluate(readCall(file, '/r'), context);
    advance(escapeQuietMs);
    const racing = {
      ...context,
      claimMarker: (claimed: string) => {
        // The other call passed, a third was denied and armed it afresh; this call takes that one.
        markers.set(claimed, freshMarker(context.now() - 5));
        return context.claimMarker(claimed);
      },
    };
    expect(evaluate(readCall(file, '/r'), racing).kind).toBe('deny');
    expect(markers.size).toBe(1);
  });

  test('the control: no race, the quiet marker is claimed and the Read passes', () => {
    const { context, markers, advance } = fakeContext({ files });
    evaluate(readCall(file, '/r'), context);
    advance(escapeQuietMs);
    expect(evaluate(readCall(file, '/r'), context).kind).toBe('none');
    expect(markers.size).toBe(0);
  });

  test('a claim the file system refuses (not gone): denied, the marker left in place', () => {
    const { context, markers, advance } = fakeContext({ files });
    evaluate(readCall(file, '/r'), context);
    advance(escapeQuietMs);
    const refusing = {
      ...context,
      claimMarker: () => ({ ok: false as const, reason: 'failed' as const, message: 'EPERM' }),
    };
    expect(evaluate(readCall(file, '/r'), refusing).kind).toBe('deny');
    expect(markers.size).toBe(1);
  });
});

describe('no fail-open path arms a marker', () => {
  // Each fails open at its own step; the temp folder must stay empty after every one.
  type Setup = { payload: HookInput; env?: Record<string, string>; launcher?: boolean };
  const failOpenPaths: [string, (root: string) => Setup][] = [
    [
      'ROSELINE_GATE=off',
      (root) => ({ payload: readCall(path.join(root, 'p/A.cs'), root), env: { ROSELINE_GATE: 'off' } }),
    ],
    ['no dnx', (root) => ({ payload: readCall(path.join(root, 'p/A.cs'), root), launcher: false })],
    [
      'NotebookRead',
      (root) => ({ payload: { ...readCall(path.join(root, 'p/A.cs'), root), tool_name: 'NotebookRead' } }),
    ],
    ['not C#', (root) => ({ payload: readCall(path.join(root, 'p/App.csproj'), root) })],
    [
      'unmarked',
      (root) => ({ payload: readCall(path.join(root, 'loose/Loose.cs'), path.join(root, 'loose')) }),
    ],
    ['only a .slnx', (root) => ({ payload: readCall(path.join(root, 'x/B.cs'), path.join(root, 'x')) })],
    ['too deep', (root) => ({ payload: readCall(path.join(root, 'p', 'd/'.repeat(45), 'A.cs'), root) })],
    [
      'no session',
      (root) => ({ payload: { ...readCall(path.join(root, 'p/A.cs'), root), session_id: undefined } }),
    ],
  ];
  test.for(failOpenPaths)('%s', ([, setup]) => {
    const root = tempTree({
      'p/App.csproj': '',
      'p/A.cs': '',
      'loose/Loose.cs': '',
      'x/All.slnx': '',
      'x/B.cs': '',
      [`p/${'d/'.repeat(45)}A.cs`]: '',
    });
    const { payload, env, launcher } = setup(root);
    const { context, temp } = realFsContext(
      envWithPath(launcher === false ? [] : [stubLauncherFolder()], env),
    );
    expect(['none', 'cannotJudge']).toContain(evaluate(payload, context).kind);
    expect(filesBelow(temp)).toEqual([]);
  });

  test('nor touches one: fail-open Reads amid a pending escape leave it to the retry', () => {
    const { root, a } = project();
    const launcher = stubLauncherFolder();
    const { context, advance, temp } = realFsContext(envWithPath([launcher]));
    expect(evaluate(readCall(a, root), context).kind).toBe('deny');
    const [marker] = filesBelow(temp);
    const before = context.readMarker(path.join(temp, marker as string));
    advance(escapeQuietMs);
    // The same Read, each failing open at its own step, at the same clock: none may touch the marker.
    const failing = [
      fileSystemContext({
        env: envWithPath([launcher], { ROSELINE_GATE: 'off' }),
        cwd: root,
        tempFolder: temp,
        now: context.now,
      }),
      fileSystemContext({ env: envWithPath([]), cwd: root, tempFolder: temp, now: context.now }),
    ];
    for (const failOpen of failing) expect(evaluate(readCall(a, root), failOpen).kind).toBe('none');
    expect(evaluate({ ...readCall(a, root), session_id: undefined }, context).kind).toBe('cannotJudge');
    expect(context.readMarker(path.join(temp, marker as string))).toEqual(before);
    expect(evaluate(readCall(a, root), context).kind).toBe('none');
  });

  test('the control: a deny arms exactly one marker', () => {
    const { root, a } = project();
    const { context, temp } = realFsContext(envWithPath([stubLauncherFolder()]));
    expect(evaluate(readCall(a, root), context).kind).toBe('deny');
    expect(filesBelow(temp)).toHaveLength(1);
  });

  test('too close to the runtime deadline: no opinion, no marker', () => {
    const { root, a } = project();
    const temp = tempDir('rg-markers');
    const env = envWithPath([stubLauncherFolder()]);
    const late = fileSystemContext({ env, cwd: root, tempFolder: temp, now: () => 10_000, deadline: 10_050 });
    expect(evaluate(readCall(a, root), late)).toEqual({ kind: 'cannotJudge', cause: 'late' });
    expect(filesBelow(temp)).toEqual([]);
    const inTime = fileSystemContext({
      env,
      cwd: root,
      tempFolder: temp,
      now: () => 10_000,
      deadline: 13_000,
    });
    expect(evaluate(readCall(a, root), inTime).kind).toBe('deny');
  });
});

describe('a temp folder that cannot be written means no opinion', () => {
  test('the temp folder is a file', () => {
    const { root, a } = project();
    const blocker = path.join(tempDir('rg-blocked'), 'not-a-folder');
    writeFileSync(blocker, '');
    const { context } = realFsContext(envWithPath([stubLauncherFolder()]), { tempFolder: blocker });
    expect(evaluate(readCall(a, root), context)).toEqual({ kind: 'cannotJudge', cause: 'marker-unwritable' });
    // And stays so: nothing was armed, so the retry is judged the same way.
    expect(evaluate(readCall(a, root), context)).toEqual({ kind: 'cannotJudge', cause: 'marker-unwritable' });
  });

  test('a store that refuses every write (fake context)', () => {
    const files = ['/r/App.csproj', '/r/A.cs'];
    expect(evaluate(readCall('/r/A.cs', '/r'), fakeContext({ files, writable: false }).context)).toEqual({
      kind: 'cannotJudge',
      cause: 'marker-unwritable',
    });
    expect(evaluate(readCall('/r/A.cs', '/r'), fakeContext({ files }).context).kind).toBe('deny');
  });
});
