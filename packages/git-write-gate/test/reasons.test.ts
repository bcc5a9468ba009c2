import { expect, test } from 'vitest';
import { evaluate, judgeFailedPayload } from '../src/evaluate.ts';
import { bashCall, fakeContext } from './fake-context.ts';

const reasonOf = (verdict: ReturnType<typeof evaluate> | undefined): string =>
  verdict !== undefined && 'reason' in verdict ? verdict.reason : `(${verdict?.kind})`;
const strict = fakeContext({ TAGOUT_HOOKS_STRICT: '1' });

test('a push in a managed repository, main thread', () => {
  expect(reasonOf(evaluate(bashCall('git push origin main'), fakeContext()))).toMatchInlineSnapshot(
    `"git-write-gate: \`git push origin main\` is a git write (push): it pushes from a checkout that other agents write to, which can corrupt a shared checkout. Use the route the \`repo-profile\` skill (.claude/skills/repo-profile.md) gives for this write instead. To run this one command anyway, prefix it: \`GIT_GATE=off git push origin main\`. To disable the gate for a whole session, start the CLI with GIT_GATE=off in its environment (an \`export\` inside a Bash call never reaches the hook)."`,
  );
});

test('a commit where the profile declares an existing replacement', () => {
  expect(
    reasonOf(evaluate(bashCall('git commit -m "fix"', '/repos/declared'), fakeContext())),
  ).toMatchInlineSnapshot(
    `"git-write-gate: \`git commit -m "fix"\` is a git write (commit): it commits onto a branch that concurrent agents share, which can corrupt a shared checkout. Use the replacement this repository declares instead: \`scripts/guarded-commit.sh -C <worktree> <branch> -- <git commit args>\`. To run this one command anyway, prefix it: \`GIT_GATE=off git commit -m "fix"\`. To disable the gate for a whole session, start the CLI with GIT_GATE=off in its environment (an \`export\` inside a Bash call never reaches the hook)."`,
  );
});

test('a reset --hard from a sub-agent', () => {
  expect(
    reasonOf(
      evaluate(
        bashCall('GIT_GATE=off git reset --hard', '/repos/managed', { agent_id: 'a1' }),
        fakeContext(),
      ),
    ),
  ).toMatchInlineSnapshot(
    `"git-write-gate: \`GIT_GATE=off git reset --hard\` is a git write (reset-hard): it throws away the index and the work tree, other agents' uncommitted work included, which can corrupt a shared checkout. Use the route the \`repo-profile\` skill (.claude/skills/repo-profile.md) gives for this write instead. The per-command escape (a GIT_GATE=off prefix) is withheld from sub-agents: hand this step back to the main thread. To disable the gate for a whole session, start the CLI with GIT_GATE=off in its environment (an \`export\` inside a Bash call never reaches the hook)."`,
  );
});

test('a retargeted gh pr merge in a managed repository', () => {
  expect(reasonOf(evaluate(bashCall('gh pr merge -R owner/repo 7'), fakeContext()))).toMatchInlineSnapshot(
    `"git-write-gate: \`gh pr merge -R owner/repo 7\` is a git write (pr-merge): it merges a pull request outside the route this repository provides, retargeted at a repository this gate cannot probe from here, which can corrupt a shared checkout. Merge it from a checkout of the target repository instead, through the route its \`repo-profile\` skill gives. To run this one command anyway, prefix it: \`GIT_GATE=off gh pr merge -R owner/repo 7\`. To disable the gate for a whole session, start the CLI with GIT_GATE=off in its environment (an \`export\` inside a Bash call never reaches the hook)."`,
  );
});

test('a write in a later find action names the find, which the escape prefix goes before', () => {
  expect(reasonOf(evaluate(bashCall('find . -exec true \\; -exec git push \\;'), fakeContext()))).toContain(
    'prefix it: `GIT_GATE=off find . -exec true \\; -exec git push \\;`.',
  );
});

test('strict: an unparseable command in a managed repository', () => {
  expect(reasonOf(evaluate(bashCall('git commit -m "open'), strict))).toMatchInlineSnapshot(
    `"git-write-gate: cannot judge \`git commit -m "open\`: the command cannot be parsed (1:15: reached EOF without closing quote ") (strict mode). To run it anyway, put GIT_GATE=off at the very start of the command (\`GIT_GATE=off …\`): the command cannot be split into segments, so no other place counts. To disable the gate for a whole session, start the CLI with GIT_GATE=off in its environment (an \`export\` inside a Bash call never reaches the hook)."`,
  );
});

test('strict: a nested string known only at run time', () => {
  expect(reasonOf(evaluate(bashCall('eval "$git_cmd"'), strict))).toMatchInlineSnapshot(
    `"git-write-gate: cannot judge \`eval "$git_cmd"\`: the string it runs cannot be read (dynamic: the command string "$git_cmd" is only known at run time) (strict mode). To run this one command anyway, prefix it: \`GIT_GATE=off eval "$git_cmd"\`. To disable the gate for a whole session, start the CLI with GIT_GATE=off in its environment (an \`export\` inside a Bash call never reaches the hook)."`,
  );
});

test('strict: a missing cwd', () => {
  expect(reasonOf(evaluate({ ...bashCall('git push'), cwd: undefined }, strict))).toMatchInlineSnapshot(
    `"git-write-gate: cannot judge \`git push\`: the payload has no cwd (strict mode). To disable the gate for a whole session, start the CLI with GIT_GATE=off in its environment (an \`export\` inside a Bash call never reaches the hook)."`,
  );
});

test('strict: an unreadable payload', () => {
  expect(
    reasonOf(judgeFailedPayload('{"command":"git push"', { TAGOUT_HOOKS_STRICT: '1' }, 'invalid-json')),
  ).toMatchInlineSnapshot(
    `"git-write-gate: cannot judge this call: the hook payload cannot be read (invalid-json), and its raw text looks like git (strict mode). To disable the gate for a whole session, start the CLI with GIT_GATE=off in its environment (an \`export\` inside a Bash call never reaches the hook)."`,
  );
});
