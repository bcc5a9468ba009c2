import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { HookInput } from '@kit/gate-approval';
import { tempDir, tempTree } from '@kit/test-kit';
import { describe, expect, test } from 'vitest';
import { fileSystemContext } from '../src/context.ts';
import { escapeMarkerPath, escapeWindowMs, sessionMarkerFolder } from '../src/escape.ts';
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
    const { context } = realFsContext(envWithPath([stubLauncherFolder()]));
    const kinds = [a, b, a, b, a].map((file) => evaluate(readCall(file, root), context).kind);
    expect(kinds).toEqual(['deny', 'deny', 'none', 'none', 'deny']);
  });

  test("per session: another session's denial is no escape", () => {
    const { root, a } = project();
    const { context } = realFsContext(envWithPath([stubLauncherFolder()]));
    const kinds = ['s1', 's2', 's2', 's1', 's1'].map(
      (session) => evaluate(readCall(a, root, session), context).kind,
    );
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
    ['garbage', 'not json'],
    [
      'a marker for another path',
      JSON.stringify({ deniedAt: 1_700_000_000_000, filePath: '/else/where.cs' }),
    ],
    ['a marker from the future', JSON.stringify({ deniedAt: 1_800_000_000_000, filePath: 'SELF' })],
    ['a string timestamp', JSON.stringify({ deniedAt: '1700000000000', filePath: 'SELF' })],
  ] as [string, string][])('%s counts as no marker: deny', ([, text]) => {
    const { root, a } = project();
    const { context, temp } = realFsContext(envWithPath([stubLauncherFolder()]));
    const marker = escapeMarkerPath(temp, 'session-1', a, path);
    // Written where the gate looks, through its own store (folders included).
    expect(context.writeText(marker, text.replace('SELF', a.replaceAll('\\', '\\\\')))).toBe(true);
    expect(evaluate(readCall(a, root), context).kind).toBe('deny');
  });

  test('the control: a fresh marker written by hand passes', () => {
    const { root, a } = project();
    const { context, temp } = realFsContext(envWithPath([stubLauncherFolder()]));
    context.writeText(
      escapeMarkerPath(temp, 'session-1', a, path),
      JSON.stringify({ deniedAt: context.now() - 1_000, filePath: a }),
    );
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
