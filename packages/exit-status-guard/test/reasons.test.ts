import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { evaluate, rulePhrases } from '../src/index.ts';
import { bashCall, fakeContext } from './fake-context.ts';

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  bugs: { url: string };
};

function reasonFor(
  command: string,
  options: { background?: boolean; session_id?: string } = {},
  context = fakeContext(),
): string {
  const verdict = evaluate(bashCall(command, options), context);
  if (verdict.kind !== 'deny') throw new Error(`expected a deny for ${command}`);
  return verdict.reason;
}

describe('every reason', () => {
  const samples: [string, keyof typeof rulePhrases, boolean?][] = [
    ['make check | tail -5', 'piped-gate'],
    ['echo "${PIPESTATUS[0]}"', 'pipestatus'],
    ['pytest > out.log 2>&1 &', 'lost-background'],
    ['make check; echo done', 'lost-background', true],
    ['cargo test; git push', 'sequenced-mutator'],
    ['diff <(npm run lint) expected.txt', 'process-substitution'],
  ];
  test.for(samples)(
    '%s opens with the guard name, names the gate, and keeps its rule phrase',
    ([command, rule, background]) => {
      const reason = reasonFor(command, { background: background === true });
      expect(reason).toMatch(/^exit-status-guard: `[^`]+`: /);
      expect(reason).toContain(rulePhrases[rule]);
      expect(reason).toContain('EXIT_STATUS_GUARD_OVERRIDE=');
      expect(reason).toContain(
        `A false positive? Report it at ${manifest.bugs.url} (label exit-status-guard)`,
      );
      if (rule !== 'pipestatus') expect(reason).toContain('.claude/exit-status-guard.json');
    },
  );
});

test('the piped-gate reason, whole', () => {
  expect(reasonFor('make check 2>&1 | tail -30; echo "EXIT=$?"')).toMatchInlineSnapshot(`
    "exit-status-guard: \`make check\`: its exit status is lost in a pipe: a pipeline reports its last stage's status, so a failed check reads as success.
    Send the output to a log and echo the status instead:
      mkdir -p tmp && make check > tmp/out.log 2>&1; echo "EXIT=$?"; tail -30 < tmp/out.log
    If the status truly does not matter this once, prefix the command with EXIT_STATUS_GUARD_OVERRIDE=<why> (one call).
    If \`make check\` is never a check here, add an exempt pattern to .claude/exit-status-guard.json: {"exempt":["^make check( |$)"]}.
    A false positive? Report it at https://github.com/kit-hooks/kit/issues (label exit-status-guard) with the command."
  `);
});

test('the sequenced reason with set -e, whole', () => {
  expect(reasonFor('set -e; cargo test; git push')).toMatchInlineSnapshot(`
    "exit-status-guard: \`cargo test\`: its exit status is lost before a state change: \`;\` runs \`git push\` whether or not the check passed. \`set -e\` does not stop it: the host runs the command inside an eval in an && list, where errexit is ignored.
    Join them with && so the change runs only when the check passed:
      set -e; cargo test && git push
    If the status truly does not matter this once, prefix the command with EXIT_STATUS_GUARD_OVERRIDE=<why> (one call).
    If \`cargo test\` is never a check here, add an exempt pattern to .claude/exit-status-guard.json: {"exempt":["^cargo test( |$)"]}.
    A false positive? Report it at https://github.com/kit-hooks/kit/issues (label exit-status-guard) with the command."
  `);
});

test('the restore reason captures and re-raises', () => {
  expect(reasonFor('make e2e; kubectl delete -f k8s/')).toMatchInlineSnapshot(`
    "exit-status-guard: \`make e2e\`: its exit status is lost before a state change: \`;\` runs \`kubectl delete -f k8s/\` whether or not the check passed.
    Capture the status, run the restore, and re-raise the status after it:
      make e2e; rc=$?; kubectl delete -f k8s/
      exit $rc
    If the status truly does not matter this once, prefix the command with EXIT_STATUS_GUARD_OVERRIDE=<why> (one call).
    If \`make e2e\` is never a check here, add an exempt pattern to .claude/exit-status-guard.json: {"exempt":["^make e2e( |$)"]}.
    A false positive? Report it at https://github.com/kit-hooks/kit/issues (label exit-status-guard) with the command."
  `);
});

test('the gate is the first 70 characters of its head, after launchers and assignments', () => {
  const long = `CI=1 timeout 60 make check ${'ARG=x '.repeat(30)}| tail`;
  const gate = /^exit-status-guard: `([^`]+)`/.exec(reasonFor(long))?.[1];
  expect(gate).toBe(`make check ${'ARG=x '.repeat(30)}`.trim().slice(0, 70));
});

describe('the log path', () => {
  test('is the scratchpad when it exists on disk', () => {
    const context = fakeContext({ findScratchpad: (session) => `/tmp/claude-0/-p/${session}/scratchpad` });
    const reason = reasonFor('make check | tail', { session_id: 'abc-123' }, context);
    expect(reason).toContain(
      'make check > /tmp/claude-0/-p/abc-123/scratchpad/out.log 2>&1; echo "EXIT=$?"; tail < /tmp/claude-0/-p/abc-123/scratchpad/out.log',
    );
    expect(reason).not.toContain('mkdir -p tmp');
  });
  test('a scratchpad path with a space is quoted', () => {
    const context = fakeContext({ findScratchpad: () => '/tmp/my dir/scratchpad' });
    expect(reasonFor('make check | tail', {}, context)).toContain("> '/tmp/my dir/scratchpad/out.log' 2>&1");
  });
  test.for(['../../etc', 'a/b', 'x y', ''])('a session id %j is never used for a path', (session) => {
    let asked = false;
    const context = fakeContext({
      findScratchpad: () => {
        asked = true;
        return '/tmp/s';
      },
    });
    const reason = reasonFor('make check | tail', { session_id: session }, context);
    expect(asked).toBe(false);
    expect(reason).toContain('mkdir -p tmp && make check > tmp/out.log 2>&1');
  });
  test('falls back to tmp/out.log with its own mkdir', () => {
    expect(reasonFor('npm test | tail -5')).toContain(
      'mkdir -p tmp && npm test > tmp/out.log 2>&1; echo "EXIT=$?"; tail -5 < tmp/out.log',
    );
  });
});

describe('writes that did not happen', () => {
  test('redirects, tee, sed -i, cp and mv targets, a heredoc script: at most five', () => {
    const command = [
      'make check | tee build.log > summary.txt',
      "sed -i 's/a/b/' config.yml",
      'cp a.txt b.txt dist/',
      'mv old.txt new.txt',
      "python3 - <<'EOF'\nprint(1)\nEOF",
      'echo x > sixth.txt',
    ].join('\n');
    const reason = reasonFor(command);
    expect(reason).toContain(
      'these writes did not happen either: `> summary.txt`, `tee build.log`, `sed -i config.yml`, `cp … dist/`, `mv … new.txt`.',
    );
  });
  test('/dev/null and fd duplications are not writes', () => {
    expect(reasonFor('make check 2>&1 >/dev/null | tail')).not.toContain('did not happen');
  });
  test('a heredoc fed to an interpreter is listed', () => {
    expect(reasonFor("make check | tail\nnode <<'EOF'\nconsole.log(1)\nEOF")).toContain(
      '`the heredoc script fed to node`',
    );
  });
});
