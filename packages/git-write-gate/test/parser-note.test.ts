import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TraceFields } from '@kit/fail-open';
import { bashPayload } from '@kit/gate-approval';
import { hookEnv, runHookFile, tempDir } from '@kit/test-kit';
import { describe, expect, test } from 'vitest';
import { evaluate } from '../src/evaluate.ts';
import { guardDefinition } from '../src/guard.ts';
import { bashCall, fakeContext } from './fake-context.ts';
import { makeFixtures } from './fixtures.ts';

/** What one call tells its trace: the verdict's own fields and every note, merged in order. */
function noted(command: string, cwd: string): TraceFields {
  const notes: TraceFields[] = [];
  const context = { ...fakeContext(), note: (fields: TraceFields) => notes.push(fields) };
  const verdict = evaluate(bashCall(command, cwd), context);
  return Object.assign({}, ...notes, verdict.fields ?? {});
}

// Positive control first: a git write in the managed repository goes to the parser.
const rows: { name: string; command: string; cwd: string; want: TraceFields }[] = [
  { name: 'a write, managed', command: 'git commit -m wip', cwd: '/repos/managed', want: { parser: true } },
  { name: 'a read, managed', command: 'git status', cwd: '/repos/managed', want: { parser: true } },
  {
    name: 'a backslash that spells git',
    command: 'g\\it status',
    cwd: '/repos/managed',
    want: { parser: true },
  },
  {
    name: 'a cd that may lead into one',
    command: 'cd .. && git push',
    cwd: '/repos/plain',
    want: { parser: true },
  },
  {
    name: 'not git-looking',
    command: 'ls -la | head',
    cwd: '/repos/managed',
    want: { parser: false, trigger: 'not-git-looking' },
  },
  {
    name: 'a backslash that cannot spell git',
    command: "rg 'a\\.b' src",
    cwd: '/repos/managed',
    want: { parser: false, trigger: 'not-git-looking' },
  },
  {
    name: 'git in an unmanaged repository',
    command: 'git commit -m wip',
    cwd: '/repos/plain',
    want: { parser: false, trigger: 'not-applicable' },
  },
  {
    name: 'git outside any repository',
    command: 'git push origin main',
    cwd: '/outside/work',
    want: { parser: false, trigger: 'not-applicable' },
  },
];

describe('the trace says whether the call went to the parser', () => {
  test.for(rows)('$name: $command', ({ command, cwd, want }) => expect(noted(command, cwd)).toEqual(want));
});

describe('the hook process writes it on its trace line, through the server or not', () => {
  const fixtures = makeFixtures();
  test.for([
    ['off', 'in-process'],
    ['on', 'server'],
  ])('KIT_HOOKS_SERVER=%s: answered %s', ([server, path]) => {
    const folder = tempDir('git-write-gate-trace');
    const trace = join(folder, 'trace.jsonl');
    writeFileSync(trace, '');
    // A TMPDIR of the test's own: a server it starts is its own, and ends after a second of quiet.
    const env = hookEnv({
      KIT_HOOKS_TRACE: trace,
      KIT_HOOKS_SERVER: server,
      KIT_HOOKS_SERVER_IDLE_SECONDS: '1',
      TMPDIR: folder,
    });
    const run = (command: string, cwd: string) =>
      runHookFile(guardDefinition.bundle, bashPayload(command, { cwd, sessionId: 's' }), { env });
    const lines = () =>
      readFileSync(trace, 'utf8')
        .trimEnd()
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line));
    // With the server on, the first call starts it: wait (bounded) until one is answered there.
    for (let tries = 0; server === 'on' && tries < 50 && lines().at(-1)?.path !== 'server'; tries++) {
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
      run('git status', fixtures.managed);
    }
    writeFileSync(trace, '');
    const commands: [string, string][] = [
      ['git status', fixtures.managed],
      ['ls -la', fixtures.managed],
      ['git commit -m wip', fixtures.plain],
    ];
    for (const [command, cwd] of commands) run(command, cwd);
    expect(lines().map(({ parser, trigger, path }) => ({ parser, trigger, path }))).toEqual([
      { parser: true, trigger: undefined, path },
      { parser: false, trigger: 'not-git-looking', path },
      { parser: false, trigger: 'not-applicable', path },
    ]);
  });
});
