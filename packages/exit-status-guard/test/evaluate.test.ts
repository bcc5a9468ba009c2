import { spawnSync } from 'node:child_process';
import { readPayload } from '@kit/gate-approval';
import { describe, expect, test } from 'vitest';
import { evaluate } from '../src/index.ts';
import { cases, positiveControl, precedence } from './cases.ts';
import { bashCall, contextWithFiles, contextWithRegistry, fakeContext } from './fake-context.ts';

const allCommands = cases.flatMap((row) =>
  row.commands.map((command) => `${row.background ? 'bg:' : ''}${command}`),
);

describe.for(cases)('$name', ({ commands, want, rule, background }) => {
  test.for(commands)('%s', (command) => {
    const verdict = evaluate(bashCall(command, { background: background === true }), fakeContext());
    expect(verdict.kind === 'deny' ? 'deny' : 'silent').toBe(want);
    if (rule) expect(verdict).toMatchObject({ rule });
  });
});

test('no command appears twice', () => expect(new Set(allCommands).size).toBe(allCommands.length));
test('the table holds at least 250 rows', () => expect(allCommands.length).toBeGreaterThanOrEqual(250));
test('every deny rule has rows in both directions', () => {
  for (const rule of [
    'piped-gate',
    'pipestatus',
    'lost-background',
    'sequenced-mutator',
    'process-substitution',
  ]) {
    expect(cases.some((row) => row.rule === rule && row.want === 'deny')).toBe(true);
  }
  expect(cases.filter((row) => row.want === 'silent').length).toBeGreaterThan(10);
});

describe('positive control', () => {
  test('denies with the shipped registry', () => {
    expect(evaluate(bashCall(positiveControl), fakeContext())).toMatchObject({
      kind: 'deny',
      rule: 'piped-gate',
    });
  });
  test('goes silent with an empty registry', () => {
    expect(evaluate(bashCall(positiveControl), contextWithRegistry({})).kind).toBe('none');
  });
});

describe('precedence: the first rule in the spec order wins', () => {
  test.for(precedence)('$command', ({ command, rule, background }) => {
    expect(evaluate(bashCall(command, { background: background === true }), fakeContext())).toMatchObject({
      kind: 'deny',
      rule,
    });
  });
});

describe('a nested shell is judged as its own shell: the same verdict as its body at top level', () => {
  const bodies = [
    'sleep 1 & make check',
    'npm run dev & npm test; echo done',
    'make check &',
    'make check & wait',
    'make check & wait $!',
    '(make check) &',
    'make check | tail',
    'set -o pipefail; make check | tail',
    'make check; git push',
    'make check; rc=$?; git push; exit $rc',
    'diff <(make check) expected',
    'echo ${PIPESTATUS[0]}',
  ];
  const wrappers = ["bash -c '%s'", "sh -c '%s'", "eval '%s'", "find . -exec bash -c '%s' \\;"];
  const judged = (command: string) => {
    const verdict = evaluate(bashCall(command), fakeContext());
    return verdict.kind === 'deny' ? verdict.rule : 'silent';
  };
  test.for(bodies.flatMap((body) => wrappers.map((wrapper) => [body, wrapper.replace('%s', body)])))(
    '%s in %s',
    ([body, command]) => expect(judged(command as string)).toBe(judged(body as string)),
  );
  test('the bodies go both ways', () => {
    expect(new Set(bodies.map(judged))).toEqual(
      new Set([
        'silent',
        'lost-background',
        'piped-gate',
        'sequenced-mutator',
        'process-substitution',
        'pipestatus',
      ]),
    );
  });
});

const hasBash = spawnSync('bash', ['--version']).status === 0;
const parseable = cases
  .filter((row) => row.name !== 'unparseable input stays silent')
  .flatMap((row) => row.commands);
describe.skipIf(!hasBash)('every table command is one bash accepts', () => {
  test.for(parseable)('%s', (command) => {
    expect(spawnSync('bash', ['-n', '-c', command]).status).toBe(0);
  });
});
describe.skipIf(!hasBash)('the unparseable rows are ones bash rejects', () => {
  const rows = cases.find((row) => row.name === 'unparseable input stays silent')?.commands ?? [];
  test.for(rows)('%s', (command) => {
    expect(spawnSync('bash', ['-n', '-c', command], { stdio: 'ignore' }).status).not.toBe(0);
  });
});

describe('cannot judge is no opinion', () => {
  test.for(['', '   ', `${'x'.repeat(70000)} | tail`])('%#', (command) => {
    expect(['none', 'cannotJudge']).toContain(evaluate(bashCall(command), fakeContext()).kind);
  });
  test('another tool, or no command, is no opinion', () => {
    expect(evaluate(readPayload('/x'), fakeContext()).kind).toBe('none');
    expect(evaluate({ tool_name: 'Bash', tool_input: {} }, fakeContext()).kind).toBe('none');
    expect(evaluate({ tool_name: 'Bash' }, fakeContext()).kind).toBe('none');
  });
  test('a throwing probe is no opinion, never a throw', () => {
    const context = fakeContext({
      readText: () => {
        throw new Error('disk on fire');
      },
      findScratchpad: () => {
        throw new Error('no');
      },
    });
    expect(evaluate(bashCall('make check | tail'), context).kind).toBe('deny');
  });
});

describe('the project registry is one file, never merged', () => {
  const readsOf = (files: Record<string, string | undefined>) => {
    const asked: string[] = [];
    const inner = contextWithFiles(files);
    const context = fakeContext({
      readText: (path) => {
        asked.push(path);
        return inner.readText(path);
      },
    });
    evaluate(bashCall('make check | tail', { cwd: '/p' }), context);
    return asked.filter((path) => path.startsWith('/p/.claude/'));
  };
  test('.claude/exit-status-guard.json exists: .claude/pipe-guard.json is not read at all', () => {
    expect(
      readsOf({ '/p/.claude/exit-status-guard.json': '{}', '/p/.claude/pipe-guard.json': '{}' }),
    ).toEqual(['/p/.claude/exit-status-guard.json']);
  });
  test('it exists but cannot be read: still the only one asked', () => {
    expect(
      readsOf({ '/p/.claude/exit-status-guard.json': undefined, '/p/.claude/pipe-guard.json': '{}' }),
    ).toEqual(['/p/.claude/exit-status-guard.json']);
  });
  test('it is absent: the 1.x file is read (the control)', () => {
    expect(readsOf({ '/p/.claude/pipe-guard.json': '{}' })).toEqual([
      '/p/.claude/exit-status-guard.json',
      '/p/.claude/pipe-guard.json',
    ]);
  });
});
