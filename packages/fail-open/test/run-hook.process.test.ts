import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '@kit/test-kit';
import { describe, expect, test } from 'vitest';
import { bashPayload, denyLine, runFixture, runFixtureFed } from './run-fixture.ts';

const payload = bashPayload('make test | tail -5');
const fast = { FIXTURE_BUDGET_MS: '400' };

describe('the control denies through a real process', () => {
  test.for(['denies.mjs', 'denies-tla.mjs'])('%s', (fixture) => {
    const run = runFixture(fixture, payload);
    expect(run.exitCode).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe(
      denyLine(fixture === 'denies.mjs' ? 'fixture-guard: make test | tail -5' : 'fixture-guard: tla'),
    );
  });
});

describe('a guard that fails in any way means no opinion: exit 0, nothing printed', () => {
  const failing = [
    'throws-error.mjs',
    'throws-null.mjs',
    'throws-string.mjs',
    'throws-undefined.mjs',
    'rejects.mjs',
    'rejects-null.mjs',
    'returns-garbage.mjs',
    'returns-garbage-output.mjs',
    'reads-throw.mjs',
    'cannot-judge.mjs',
    'on-fail-open-throws.mjs',
    'hangs.mjs',
    'hangs-with-timer.mjs',
    'late-deny.mjs',
  ];
  test.for(failing)('%s', (fixture) => {
    const run = runFixture(fixture, payload, fast);
    expect({ exitCode: run.exitCode, stdout: run.stdout, stderr: run.stderr }).toEqual({
      exitCode: 0,
      stdout: '',
      stderr: '',
    });
  });

  test.for(['hangs.mjs', 'hangs-with-timer.mjs'])('%s ends soon after its budget', (fixture) => {
    const run = runFixture(fixture, payload, fast);
    expect(run.exitCode).toBe(0);
    expect(run.ms).toBeLessThan(400 + 2500);
  });
});

// The budget is for what may never end (stdin, a promise that never settles), not for slowness: a
// verdict evaluate returned is written however long it took, since a hook still running has not
// reached the host's timeout.
describe('a verdict computed after the budget is still the answer', () => {
  test.for(['late-sync-deny.mjs', 'late-busy-then-async-deny.mjs'])('%s prints its deny', (fixture) => {
    const run = runFixture(fixture, payload, fast);
    expect([run.exitCode, run.stdout, run.stderr]).toEqual([0, denyLine('fixture-guard: late'), '']);
  });
  test('a strict guard that answered none after the budget is not refused as unreadable', () => {
    const run = runFixture('late-sync-none-strict.mjs', payload, fast);
    expect([run.exitCode, run.stdout, run.stderr]).toEqual([0, '', '']);
  });
  test('control: the same strict guard refuses when its evaluate never settles', () => {
    const run = runFixture('hangs-strict.mjs', payload, fast);
    expect([run.exitCode, run.stdout, run.stderr]).toEqual([
      2,
      '',
      'fixture-guard: cannot judge (budget-exceeded)\n',
    ]);
  });
});

describe('refusals print only on purpose', () => {
  test('a guard that refuses: reason on stderr, exit 2', () => {
    const run = runFixture('refuses.mjs', payload);
    expect([run.exitCode, run.stdout, run.stderr]).toEqual([2, '', 'fixture-guard: refused\n']);
  });
  test('onFailOpen turns a throw into a refusal naming the cause', () => {
    const run = runFixture('refuses-on-fail-open.mjs', payload);
    expect([run.exitCode, run.stdout, run.stderr]).toEqual([2, '', 'fixture-guard: cannot judge (threw)\n']);
  });
  test('onFailOpen sees stdin failures too', () => {
    const run = runFixture('refuses-on-fail-open.mjs', '{');
    expect([run.exitCode, run.stderr]).toEqual([2, 'fixture-guard: cannot judge (invalid-json)\n']);
  });
});

describe('stdin that is not one JSON object means no opinion, even for the control', () => {
  const stdins: [string, string | Buffer][] = [
    ['empty', ''],
    ['blank', ' \n\t '],
    ['garbage', 'make test | tail'],
    ['null', 'null'],
    ['array', '[]'],
    ['array of payloads', `[${payload}]`],
    ['string', '"Bash"'],
    ['number', '42'],
    ['cut JSON', payload.slice(0, payload.length - 3)],
    ['two objects', `${payload}${payload}`],
    [
      'huge (5 MiB, over the 4 MiB cap)',
      `{"tool_name":"Bash","tool_input":{"command":"${'x'.repeat(5 * 1024 * 1024)}"}}`,
    ],
    ['invalid UTF-8 bytes', Buffer.from([0xff, 0xfe, 0x7b])],
  ];
  test.for(stdins)('%s', ([, stdin]) => {
    const run = runFixture('denies.mjs', stdin);
    expect({ exitCode: run.exitCode, stdout: run.stdout, stderr: run.stderr }).toEqual({
      exitCode: 0,
      stdout: '',
      stderr: '',
    });
  });

  test('a payload just under the cap still denies (the cap is not the cause above)', () => {
    const command = 'x'.repeat(3 * 1024 * 1024);
    const run = runFixture('denies.mjs', bashPayload(command));
    expect(run.stdout).toBe(denyLine(`fixture-guard: ${command}`));
  });

  test('a byte-order mark and surrounding blanks are accepted', () => {
    expect(runFixture('denies.mjs', `\uFEFF\n ${payload} \n`).stdout).toBe(
      denyLine('fixture-guard: make test | tail -5'),
    );
  });
});

describe('slow stdin', () => {
  test('a writer that dribbles the payload inside the budget is read whole', async () => {
    const run = await runFixtureFed('denies.mjs', (stdin) => {
      const bytes = Buffer.from(payload);
      let offset = 0;
      const timer = setInterval(() => {
        stdin.write(bytes.subarray(offset, offset + 16));
        offset += 16;
        if (offset >= bytes.length) {
          clearInterval(timer);
          stdin.end();
        }
      }, 5);
    });
    expect([run.exitCode, run.stdout]).toEqual([0, denyLine('fixture-guard: make test | tail -5')]);
  });

  test('a writer too slow for the budget: no opinion', async () => {
    const run = await runFixtureFed(
      'denies.mjs',
      (stdin) => {
        stdin.write(payload.slice(0, 10));
        setTimeout(() => {
          stdin.write(payload.slice(10));
          stdin.end();
        }, 1200);
      },
      fast,
    );
    expect([run.exitCode, run.stdout, run.stderr]).toEqual([0, '', '']);
  });

  test('a writer that never closes: no opinion, and the process does not hang', async () => {
    const run = await runFixtureFed('denies.mjs', (stdin) => stdin.write(payload), fast);
    expect([run.exitCode, run.stdout, run.stderr]).toEqual([0, '', '']);
    expect(run.ms).toBeLessThan(400 + 2500);
  });
});

describe('KIT_HOOKS_TRACE', () => {
  const traceDir = tempDir('fail-open-trace');

  test('one JSON line per call: time, guard, tool, verdict, cause, ms', () => {
    const trace = join(traceDir, 'trace.jsonl');
    writeFileSync(trace, '');
    runFixture('denies.mjs', payload, { KIT_HOOKS_TRACE: trace });
    runFixture('throws-string.mjs', payload, { KIT_HOOKS_TRACE: trace });
    runFixture('denies.mjs', '[]', { KIT_HOOKS_TRACE: trace });
    runFixture('cannot-judge.mjs', payload, { KIT_HOOKS_TRACE: trace });
    runFixture('hangs.mjs', payload, { KIT_HOOKS_TRACE: trace, ...fast });
    const lines = readFileSync(trace, 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.map(({ time, ms, ...rest }) => rest)).toEqual([
      { guard: 'fixture-guard', tool: 'Bash', verdict: 'deny' },
      { guard: 'fixture-guard', tool: 'Bash', verdict: 'none', cause: 'threw' },
      { guard: 'fixture-guard', tool: null, verdict: 'none', cause: 'not-an-object' },
      { guard: 'fixture-guard', tool: 'Bash', verdict: 'cannotJudge', cause: 'syntax' },
      { guard: 'fixture-guard', tool: 'Bash', verdict: 'none', cause: 'budget-exceeded' },
    ]);
    for (const line of lines) {
      expect(new Date(line.time).toISOString()).toBe(line.time);
      expect(typeof line.ms).toBe('number');
    }
  });

  test("named fields: the runtime's notes, then the verdict's own; reserved names and non-values left out", () => {
    const trace = join(traceDir, 'fields.jsonl');
    writeFileSync(trace, '');
    runFixture('notes-fields.mjs', payload, { KIT_HOOKS_TRACE: trace });
    const [line] = readFileSync(trace, 'utf8')
      .trimEnd()
      .split('\n')
      .map((each) => JSON.parse(each));
    const { time, ms, ...rest } = line;
    expect(typeof ms === 'number' && ms >= 0).toBe(true);
    expect(new Date(time).toISOString()).toBe(time);
    expect(rest).toEqual({
      guard: 'fixture-guard',
      tool: 'Bash',
      verdict: 'deny',
      path: 'in-process',
      parser: true,
      rule: 'piped-gate',
      rewrite: 'make check > log',
    });
    expect(Object.keys(line).slice(0, 5)).toEqual(['time', 'guard', 'tool', 'verdict', 'ms']);
  });

  test('a trace that cannot be written is ignored: the deny still prints', () => {
    const notAFolder = join(traceDir, 'plain-file');
    writeFileSync(notAFolder, '');
    const run = runFixture('denies.mjs', payload, { KIT_HOOKS_TRACE: join(notAFolder, 'trace.jsonl') });
    expect([run.exitCode, run.stdout, run.stderr]).toEqual([
      0,
      denyLine('fixture-guard: make test | tail -5'),
      '',
    ]);
  });
});

// Which fields a payload may carry is the protocol's to say (gate-approval's claudeCode drops a
// wrong-typed known field, tested there): the runtime hands evaluate what the protocol read.
test('evaluate receives what the protocol read from the payload, unknown fields and all', () => {
  const raw = JSON.stringify({
    tool_name: 'Bash',
    tool_input: { command: 'ls' },
    cwd: 42,
    effort: { level: 'medium' },
  });
  const run = runFixture('echo-input.mjs', raw);
  const reason = JSON.parse(run.stdout).hookSpecificOutput.permissionDecisionReason;
  expect(JSON.parse(reason)).toEqual({
    input: { tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: 42, effort: { level: 'medium' } },
    rawLength: raw.length,
    guard: 'fixture-guard',
  });
});

describe('the output goes straight to the file descriptors', () => {
  const streamsLog = (): string => join(tempDir('kit-streams'), 'built.log');
  const builtStreams = (log: string): string[] => {
    try {
      return readFileSync(log, 'utf8')
        .split('\n')
        .filter((line) => line !== '');
    } catch {
      return [];
    }
  };

  test.for([
    ['a silent call', 'ls', 0, ''],
    ['a deny', 'make test | tail -5', 0, 'fixture-guard: make test | tail -5'],
    ['a refusal (stderr, exit 2)', 'refuse', 2, ''],
  ] as const)('%s never builds process.stdout', ([, command, exitCode, reason]) => {
    const log = streamsLog();
    const run = runFixture('watches-streams.mjs', bashPayload(command), { FIXTURE_STREAMS_LOG: log });
    expect(run.exitCode).toBe(exitCode);
    expect(run.stdout).toBe(reason === '' ? '' : denyLine(reason));
    expect(run.stderr).toBe(command === 'refuse' ? 'fixture-guard: refuse\n' : '');
    expect(builtStreams(log)).toEqual([]);
  });

  test('an output larger than a pipe buffer arrives whole', () => {
    const log = streamsLog();
    const run = runFixture('watches-streams.mjs', payload, {
      FIXTURE_STREAMS_LOG: log,
      FIXTURE_REASON_BYTES: String(512 * 1024),
    });
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toBe(denyLine(`fixture-guard: make test | tail -5${'x'.repeat(512 * 1024)}`));
  });
});
