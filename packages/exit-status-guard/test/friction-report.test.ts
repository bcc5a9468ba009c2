import { fileURLToPath } from 'node:url';
import { runCli } from '@kit/gate-approval';
import { recordingIO, tempDir } from '@kit/test-kit';
import { describe, expect, test } from 'vitest';
import { parseSince } from '../src/friction/command.ts';
import { normaliseCommand } from '../src/friction/report.ts';
import { guardDefinition } from '../src/guard.ts';

const fixtures = fileURLToPath(new URL('./fixtures/transcripts', import.meta.url));

async function report(...argv: string[]) {
  const io = recordingIO({ cwd: fixtures, home: '/nonexistent-home' });
  const code = await runCli(guardDefinition, ['friction-report', ...argv], io);
  return { code, out: io.out(), err: io.err() };
}

async function reportJson(...argv: string[]) {
  const { code, out } = await report(...argv, '--json');
  expect(code).toBe(0);
  return JSON.parse(out);
}

describe('friction-report on transcripts in the real CLI format', () => {
  test('pairs denials in both record forms with their Bash calls', async () => {
    const json = await reportJson('--transcripts', fixtures);
    expect(json).toMatchObject({
      transcripts: 2,
      decisions: 11,
      denied: 7,
      deniedByOthers: 1,
      notDenied: 3,
      // pytest -q | tail is denied, then the next call builds: it moved on, it did not rewrite pytest.
      afterDenial: { rewritten: 1, overridden: 1, 'denied-again': 3, 'moved-on': 1, abandoned: 1 },
    });
    expect(Object.fromEntries(json.byRule)).toEqual({
      'piped-gate': 5,
      'sequenced-mutator': 1,
      'lost-background': 1,
    });
  });

  test('names the gates (the opener is optional) and the normalised commands', async () => {
    const json = await reportJson('--transcripts', fixtures, '--top', '3');
    expect(json.topGates).toEqual([
      ['make test', 3],
      ['cargo test', 1],
      ['npm run build', 1],
    ]);
    expect(json.topCommands[0]).toEqual(['make test | tail -5', 2]);
    expect(json.topCommands.map(([command]: [string]) => command)).toContain(
      'cargo test; git push origin <sha>',
    );
  });

  test('the text report', async () => {
    const { code, out } = await report('--transcripts', fixtures, '--top', '2');
    expect(code).toBe(0);
    expect(out.replace(fixtures, '<fixtures>')).toMatchInlineSnapshot(`
      "exit-status-guard friction report (2 transcripts under <fixtures>)
      decisions analyzed: 11 Bash calls (since all, plugin all)
      outcomes: 7 denied by this guard, 1 denied by other hooks, 3 not denied
      after a denial: 1 rewritten, 1 overridden, 3 denied again, 1 moved on, 1 abandoned
      by rule:
            5  piped-gate
            1  lost-background
            1  sequenced-mutator
      top gates whose status was being lost (top 2):
            3  make test
            1  cargo test
      top triggering commands (top 2):
            2  make test | tail -5
            1  cargo test; git push origin <sha>
      "
    `);
  });

  test('--raw lists every denial', async () => {
    const { out } = await report('--transcripts', fixtures, '--raw');
    expect(out).toContain('denials:');
    expect(out).toContain('2026-11-28T10:00:01.000Z  piped-gate  /home/u/api  "make test | tail -5"');
    expect(out.match(/^ {2}20\d\d-/gm)?.length).toBe(7);
  });

  test('--plugin picks the opener; a denial without opener counts for both', async () => {
    expect((await reportJson('--transcripts', fixtures, '--plugin', 'pipe-guard')).denied).toBe(3);
    expect((await reportJson('--transcripts', fixtures, '--plugin', 'exit-status-guard')).denied).toBe(5);
    expect((await reportJson('--transcripts', fixtures, '--plugin', 'all')).denied).toBe(7);
  });

  test('--repo and --since filter the calls', async () => {
    expect((await reportJson('--transcripts', fixtures, '--repo', '/u/web')).denied).toBe(3);
    expect((await reportJson('--transcripts', fixtures, '--since', '2026-11-01')).denied).toBe(4);
  });

  test.for([
    [['--since', '2027-01-01'], 'the filter --since 2027-01-01 left no denials'],
    [['--repo', 'nowhere'], 'the filter --repo nowhere left no denials'],
    [['--repo', '/u/api', '--plugin', 'pipe-guard'], 'the filter --plugin pipe-guard left no denials'],
  ] as const)('%j says which filter emptied it', async ([args, message]) => {
    const { out } = await report('--transcripts', fixtures, ...(args as unknown as string[]));
    expect(out).toContain(message);
  });

  test('no transcripts at all is said so', async () => {
    const empty = tempDir('esg-empty');
    expect((await report('--transcripts', empty)).out).toContain('no transcripts (*.jsonl) under');
  });

  test('a --transcripts folder that is not there is said so, exit 1', async () => {
    const missing = `${tempDir('esg-gone')}/no-such-folder`;
    const { code, out, err } = await report('--transcripts', missing);
    expect([code, out]).toEqual([1, '']);
    expect(err).toBe(
      `friction-report: --transcripts ${missing} does not exist; give the folder of Claude Code transcripts (default ~/.claude/projects)\n`,
    );
    const file = fileURLToPath(new URL('./friction-report.test.ts', import.meta.url));
    expect((await report('--transcripts', file)).err).toContain(`${file} is not a folder`);
  });

  test('--help prints the whole usage', async () => {
    for (const flag of ['--help', '-h']) {
      const { code, out } = await report(flag);
      expect(code).toBe(0);
      expect(out).toMatch(/^usage: exit-status-guard friction-report \[--transcripts DIR\]/);
    }
  });

  test('reads ~/.claude/projects by default', async () => {
    const io = recordingIO({ home: '/nonexistent-home' });
    await runCli(guardDefinition, ['friction-report'], io);
    expect(io.out()).toContain('/nonexistent-home/.claude/projects');
  });

  test.for([['--since', 'yesterday'], ['--top', '0'], ['--plugin', 'other'], ['--bogus']])(
    '%j is a usage error',
    async (args) => {
      const { code, err } = await report(...args);
      expect(code).toBe(1);
      expect(err).toContain('usage: exit-status-guard friction-report');
    },
  );
});

test.for([
  ['7d', 7 * 86_400_000],
  ['12h', 12 * 3_600_000],
])('--since %s', ([value, ms]) =>
  expect(parseSince(value as string, 1e12)?.from).toBe(1e12 - (ms as number)),
);

test('normalises uuids, shas and long numbers', () => {
  expect(
    normaliseCommand(
      'git show 3f2a9c1d7e && cat /tmp/5d0c2a51-8f1e-4a57-9a53-0e1e3b7c9d11.log build-123456.log  x',
    ),
  ).toBe('git show <sha> && cat /tmp/<uuid>.log build-<n>.log x');
});
