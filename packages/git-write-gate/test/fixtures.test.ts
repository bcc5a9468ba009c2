import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { tempRepo } from '@kit/test-kit';
import { describe, expect, test } from 'vitest';
import { realContext } from '../src/context.ts';
import { evaluate } from '../src/evaluate.ts';
import { bashCall } from './fake-context.ts';
import { makeFixtures } from './fixtures.ts';

const fixtures = makeFixtures();

const judge = (command: string, cwd: string, env: Record<string, string> = {}) =>
  evaluate(bashCall(command, cwd), realContext({ env, raw: '' }));

describe('fixture repositories on disk, the real probes', () => {
  test('the linked worktree is a real one: .git is a file with gitdir:', () => {
    expect(statSync(join(fixtures.worktree, '.git')).isFile()).toBe(true);
    expect(existsSync(join(fixtures.worktree, '.claude/skills/repo-profile.md'))).toBe(true);
  });
  test.for([
    ['managed', 'git push origin main'],
    ['nested', 'git commit -m x'],
    ['worktree', 'git push'],
    ['worktree', 'git reset --hard'],
  ] as const)('%s: %s is denied', ([where, command]) => {
    expect(judge(command, fixtures[where]).kind).toBe('deny');
  });
  test.for([
    ['plain', 'git push origin main'],
    ['outside', 'git commit -m x'],
    ['oldWorktree', 'git push'],
    ['managed', 'git status'],
  ] as const)('%s: %s passes', ([where, command]) => {
    expect(judge(command, fixtures[where]).kind).toBe('none');
  });
  test('a linked worktree answers for itself: its own checked-out profile, not the main checkout', () => {
    expect(judge('git commit -m x', fixtures.worktree).kind).toBe('deny');
    expect(judge('git commit -m x', fixtures.oldWorktree).kind).toBe('none');
  });
  test('cd into a managed repository from an unmanaged cwd', () => {
    expect(judge(`cd ${fixtures.managed} && git push`, fixtures.outside).kind).toBe('deny');
    expect(judge(`cd ${fixtures.plain} && git push`, fixtures.outside).kind).toBe('none');
    expect(judge(`git -C ${fixtures.nested} commit -m x`, fixtures.outside).kind).toBe('deny');
    expect(judge('cd ../managed/src && git push', fixtures.outside).kind).toBe('deny');
  });
  test('env -C and sudo -D run git in the managed repository', () => {
    expect(judge(`env -C ${fixtures.managed} git commit -m x`, fixtures.outside).kind).toBe('deny');
    expect(judge(`sudo -D ${fixtures.managed} git push`, fixtures.outside).kind).toBe('deny');
    expect(judge(`env --chdir=${fixtures.plain} git commit -m x`, fixtures.outside).kind).toBe('none');
    expect(judge(`env -C ${fixtures.outside} git commit -m x`, fixtures.managed).kind).toBe('none');
  });
  test('a cd inside a piped or backgrounded group moves the commands of that group only', () => {
    expect(judge(`{ cd ${fixtures.managed}; git commit -m x; } | cat`, fixtures.outside).kind).toBe('deny');
    expect(judge(`{ cd ${fixtures.managed}; git commit -m x; } &`, fixtures.outside).kind).toBe('deny');
    expect(judge(`{ cd ${fixtures.managed}; } | cat; git commit -m x`, fixtures.outside).kind).toBe('none');
    expect(judge(`cd ${fixtures.managed} | cat; git commit -m x`, fixtures.outside).kind).toBe('none');
  });
  test('the declared replacement is named when its file exists in the worktree', () => {
    const verdict = judge('git commit -m x', fixtures.worktree);
    expect('reason' in verdict ? verdict.reason : '').toContain(
      '`scripts/guarded-commit.sh -C <worktree> <branch> -- <git commit args>`',
    );
  });
  test('strict: unparseable refused in the managed worktree, passed in the plain repository', () => {
    const strict = { TAGOUT_HOOKS_STRICT: '1' };
    expect(judge('git commit -m "open', fixtures.worktree, strict).kind).toBe('refuse');
    // The plain repository is seen before the parse: nothing in the text can move the directory.
    expect(judge('git commit -m "open', fixtures.plain, strict).kind).toBe('none');
  });
  test('GIT_GATE=on denies in the plain repository', () => {
    expect(judge('git push', fixtures.plain, { GIT_GATE: 'on' }).kind).toBe('deny');
  });
  test('a profile that is a folder is no evidence', () => {
    const fake = tempRepo({ '.claude/skills/repo-profile.md/': '' });
    expect(judge('git push', fake).kind).toBe('none');
  });
});
