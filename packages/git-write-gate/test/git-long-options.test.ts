import { execFileSync } from 'node:child_process';
import { tempRepo } from '@kit/test-kit';
import { describe, expect, test } from 'vitest';
import { builtinCommands, longOptions, longOptionsGitVersion } from '../src/git-long-options.ts';

const localVersion = (() => {
  try {
    return execFileSync('git', ['--version'], { encoding: 'utf8' })
      .trim()
      .replace(/^git version /, '');
  } catch {
    return null;
  }
})();

describe('the long-option table is what its git lists', () => {
  test('it names the git it came from', () => expect(longOptionsGitVersion).toMatch(/^\d+\.\d+/));
  test('every judged subcommand has a list with its write options in it', () => {
    expect(longOptions.commit).toContain('dry-run');
    expect(longOptions.clean).toContain('force');
    expect(longOptions.switch).toContain('discard-changes');
    expect(longOptions.restore).toContain('worktree');
  });
  describe.skipIf(localVersion !== longOptionsGitVersion)(`the local git is ${longOptionsGitVersion}`, () => {
    const repo = tempRepo();
    test.for(Object.keys(longOptions))('git %s --git-completion-helper-all', (sub) => {
      const listed = execFileSync('git', [...sub.split(' '), '--git-completion-helper-all'], {
        cwd: repo,
        encoding: 'utf8',
      })
        .split(/\s+/)
        .filter((form) => form.startsWith('--') && form !== '--')
        .map((form) => form.slice(2));
      expect([...new Set(listed)].sort()).toEqual([...(longOptions[sub] ?? [])]);
    });
    test('git --list-cmds=builtins', () => {
      const listed = execFileSync('git', ['--list-cmds=builtins'], { cwd: repo, encoding: 'utf8' });
      expect(
        listed
          .split('\n')
          .filter((name) => name !== '')
          .sort(),
      ).toEqual([...builtinCommands]);
    });
  });
});
