import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { runJudgeWatch, watchMessages } from '../src/mcp/judge-watch.ts';
import {
  readSessionStatus,
  sessionRecorder,
  sessionStatusFile,
  writeSessionStatus,
} from '../src/mcp/session-status.ts';

// Never silent: the kit-judge plugin's UserPromptSubmit hook tells the user, once per session, that
// the judge never recorded itself (it never connected), could not load a guard, or was restarted.
const root = mkdtempSync(join(tmpdir(), 'kit-judge-watch-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const dataDir = () => join(root, `data-${n++}`);
const noWait = async () => undefined;
const prompt = (sessionId: string) => JSON.stringify({ session_id: sessionId, prompt: 'hi' });
const messageOf = (out: string) =>
  out === '' ? '' : (JSON.parse(out) as { systemMessage: string }).systemMessage;

describe('watchMessages', () => {
  test.for([
    ['no record: the judge never connected', undefined, ['not-connected']],
    ['a clean record: nothing to say', { pid: 1, restarts: 0, problems: [], loaded: [] }, []],
    [
      'a guard that could not load',
      { pid: 1, restarts: 0, problems: ['g: gone'], loaded: [] },
      ['problem:g: gone'],
    ],
    ['a restart', { pid: 1, restarts: 2, problems: [], loaded: [] }, ['restarts:2']],
  ] as const)('%s', ([, status, keys]) => {
    expect(
      watchMessages(
        status === undefined ? undefined : { ...status, problems: [...status.problems], loaded: [] },
      ).map((m) => m.key),
    ).toEqual(keys);
  });
});

describe('runJudgeWatch: once per session', () => {
  test('no record: says the judge is not running, then nothing on the next prompt', async () => {
    const env = { CLAUDE_PLUGIN_DATA: dataDir() };
    const first = messageOf(await runJudgeWatch(prompt('s1'), env, noWait));
    expect(first).toContain('is not running in this session');
    expect(first).toContain('git-write-gate-strict blocks every Bash call');
    expect(await runJudgeWatch(prompt('s1'), env, noWait)).toBe('');
    // Another session is told on its own.
    expect(messageOf(await runJudgeWatch(prompt('s2'), env, noWait))).toContain('is not running');
  });

  test('a clean record (positive control): nothing, ever', async () => {
    const data = dataDir();
    writeSessionStatus(sessionStatusFile(data, 's') as string, {
      pid: 1,
      restarts: 0,
      problems: [],
      loaded: [],
    });
    expect(await runJudgeWatch(prompt('s'), { CLAUDE_PLUGIN_DATA: data }, noWait)).toBe('');
  });

  test('a problem is told once; a new problem later is told then', async () => {
    const data = dataDir();
    const file = sessionStatusFile(data, 's') as string;
    const env = { CLAUDE_PLUGIN_DATA: data };
    writeSessionStatus(file, { pid: 1, restarts: 0, problems: ['a: broken'], loaded: [] });
    expect(messageOf(await runJudgeWatch(prompt('s'), env, noWait))).toContain('a: broken');
    expect(await runJudgeWatch(prompt('s'), env, noWait)).toBe('');
    writeSessionStatus(file, { pid: 1, restarts: 0, problems: ['a: broken', 'b: broken'], loaded: [] });
    const later = messageOf(await runJudgeWatch(prompt('s'), env, noWait));
    expect(later).toContain('b: broken');
    expect(later).not.toContain('a: broken');
  });

  test.for([
    ['no data folder', {}, prompt('s')],
    ['no session id', { CLAUDE_PLUGIN_DATA: '/x' }, '{}'],
    ['a session id that is no file name', { CLAUDE_PLUGIN_DATA: '/x' }, prompt('../../etc')],
    ['stdin that is no JSON', { CLAUDE_PLUGIN_DATA: '/x' }, 'oops'],
  ] as const)('%s: prints nothing', async ([, env, stdin]) => {
    expect(await runJudgeWatch(stdin, env, noWait)).toBe('');
  });
});

describe('sessionRecorder: what the judge writes', () => {
  test('a first start records no restart; another process for the same session counts one; problems are kept once', () => {
    const file = sessionStatusFile(dataDir(), 's') as string;
    writeSessionStatus(file, { pid: process.pid + 1, restarts: 0, problems: ['old'], loaded: ['/old.cjs'] });
    const record = sessionRecorder(file);
    record.problem('new');
    record.problem('new');
    // The other process's loaded modules are not this one's.
    expect(readSessionStatus(file)).toEqual({
      pid: process.pid,
      restarts: 1,
      problems: ['old', 'new'],
      loaded: [],
    });
    const fresh = sessionStatusFile(dataDir(), 's') as string;
    sessionRecorder(fresh);
    expect(readSessionStatus(fresh)).toEqual({ pid: process.pid, restarts: 0, problems: [], loaded: [] });
  });

  test('the modules loaded before the host said it is connected, then each one loaded after, once', () => {
    const file = sessionStatusFile(dataDir(), 's') as string;
    const record = sessionRecorder(file, ['/a.cjs']);
    record.loaded('/b.cjs');
    record.loaded('/b.cjs');
    expect(readSessionStatus(file)?.loaded).toEqual(['/a.cjs', '/b.cjs']);
    // The same process recording again (the record made anew) keeps its own list.
    sessionRecorder(file, ['/c.cjs']);
    expect(readSessionStatus(file)).toMatchObject({ restarts: 0, loaded: ['/a.cjs', '/b.cjs', '/c.cjs'] });
  });
});
