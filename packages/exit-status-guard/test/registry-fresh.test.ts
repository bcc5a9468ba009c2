import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bashPayload } from '@kit/gate-approval';
import { hookEnv, runHookFile, tempDir } from '@kit/test-kit';
import { describe, expect, test } from 'vitest';
import { realContext } from '../src/context.ts';
import { evaluate } from '../src/evaluate.ts';
import { guardDefinition } from '../src/guard.ts';

// A verdict server answers every call in one long-lived process: a project registry changed between
// two calls must change the second call's verdict there, exactly as in a fresh hook process.
const command = 'mytool check | tail -5';
const registries: { name: string; text: string | null; want: 'deny' | 'silent' }[] = [
  { name: 'a gate for mytool', text: '{"gates":["^mytool( |$)"]}', want: 'deny' },
  { name: 'no project file', text: null, want: 'silent' },
  { name: 'the gate again', text: '{"gates":["^mytool( |$)"]}', want: 'deny' },
  { name: 'the same length, another tool', text: '{"gates":["^yourtl( |$)"]}', want: 'silent' },
  { name: 'not JSON', text: '{"gates":["^mytool( |$)"]', want: 'silent' },
  {
    name: 'exempted by the project',
    text: '{"gates":["^mytool( |$)"],"exempt":["^mytool check"]}',
    want: 'silent',
  },
];

function project(): { dir: string; write: (text: string | null) => void } {
  const dir = tempDir('esg-registry-fresh');
  mkdirSync(join(dir, '.claude'), { recursive: true });
  const file = join(dir, '.claude', 'exit-status-guard.json');
  return { dir, write: (text) => writeFileSync(file, text ?? '', { flag: 'w' }) };
}

describe('a changed project registry changes the next verdict in the same process', () => {
  test('in process: evaluate with the real probes, one call after each change', () => {
    const { dir, write } = project();
    const verdicts = registries.map(({ text }) => {
      if (text === null) write('{}');
      else write(text);
      const verdict = evaluate(bashPayload(command, { cwd: dir }), realContext({ env: {} }));
      return verdict.kind === 'deny' ? 'deny' : 'silent';
    });
    expect(verdicts).toEqual(registries.map((row) => row.want));
  });

  test('through the verdict server: every call after the first answered by one warm process', () => {
    const { dir, write } = project();
    const trace = join(dir, 'trace.jsonl');
    const env = hookEnv({
      KIT_HOOKS_TRACE: trace,
      KIT_HOOKS_SERVER: 'on',
      KIT_HOOKS_SERVER_IDLE_SECONDS: '1',
      TMPDIR: dir, // a server of this test's own
      CLAUDE_PROJECT_DIR: dir,
    });
    const call = () => runHookFile(guardDefinition.bundle, bashPayload(command, { cwd: dir }), { env });
    const lastPath = () =>
      readFileSync(trace, 'utf8')
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line))
        .at(-1)?.path;
    write('{}');
    call();
    for (let tries = 0; tries < 50 && lastPath() !== 'server'; tries++) {
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
      call();
    }
    const seen = registries.map(({ text }) => {
      write(text ?? '{}');
      const run = call();
      return {
        verdict: run.stdout.includes('"permissionDecision":"deny"') ? 'deny' : 'silent',
        path: lastPath(),
      };
    });
    expect(seen).toEqual(registries.map((row) => ({ verdict: row.want, path: 'server' })));
  });
});
