import { describe, expect, test } from 'vitest';
import { evaluate } from '../src/evaluate.ts';
import { defaultProfile, parseProfile } from '../src/profile.ts';
import { writeKinds } from '../src/write-kind.ts';
import { bashCall, fakeContext, standardWorld } from './fake-context.ts';

const specExample = [
  '---',
  'name: repo-profile',
  'git-write-gate:',
  '  commit: scripts/guarded-commit.sh -C <worktree> <branch> -- <git commit args>',
  '  push: scripts/guarded-push.sh -C <worktree> <branch>',
  '  deny: [commit, push, merge, history, ref, reset-hard, clean-force, discard, stash, pr-merge]',
  '---',
  '# body',
].join('\n');

describe('parseProfile', () => {
  test('the spec example', () => {
    const profile = parseProfile(specExample);
    expect([...profile.deny]).toEqual([...writeKinds]);
    expect(profile.replacements).toEqual({
      commit: 'scripts/guarded-commit.sh -C <worktree> <branch> -- <git commit args>',
      push: 'scripts/guarded-push.sh -C <worktree> <branch>',
    });
  });
  test('deny narrows the class; unknown kinds are ignored', () => {
    expect([...parseProfile('---\ngit-write-gate:\n  deny: [push, "merge", rebase]\n---\n').deny]).toEqual([
      'push',
      'merge',
    ]);
  });
  test('deny as a block list, CRLF line ends, a BOM, comments, quoted values', () => {
    const text =
      '\uFEFF---\r\nname: x\r\ngit-write-gate:\r\n  # routes\r\n  push: "scripts/p.sh -C <worktree>"\r\n  deny:\r\n    - push\r\n    - reset-hard\r\nother: 1\r\n---\r\n';
    expect(parseProfile(text)).toEqual({
      deny: new Set(['push', 'reset-hard']),
      replacements: { push: 'scripts/p.sh -C <worktree>' },
    });
  });
  test('an empty deny list denies nothing', () =>
    expect(parseProfile('---\ngit-write-gate:\n  deny: []\n---\n').deny.size).toBe(0));
  test.for([
    ['no front matter', '# Repo profile\ngit-write-gate:\n  deny: [push]\n'],
    ['empty file', ''],
    ['unclosed front matter', '---\ngit-write-gate:\n  deny: [push]\n'],
    ['no gate block', '---\nname: repo-profile\n---\n'],
    ['a gate key with an inline value', '---\ngit-write-gate: off\n---\n'],
    ['a line outside the subset', '---\ngit-write-gate:\n  deny: [push]\n  ??? what\n---\n'],
    ['deny neither a flow nor a block list', '---\ngit-write-gate:\n  deny: push\n---\n'],
    ['a list item with no list', '---\ngit-write-gate:\n  - push\n---\n'],
    ['binary noise', '\u0000\u0001---\u0002'],
  ])('%s: the default profile', ([, text]) => expect(parseProfile(text ?? '')).toBe(defaultProfile));
});

describe('the replacement in the reason', () => {
  const reason = (command: string, cwd: string, world = standardWorld): string => {
    const verdict = evaluate(bashCall(command, cwd), fakeContext({}, world));
    return 'reason' in verdict ? verdict.reason : '';
  };
  test('a declared replacement whose file exists is named', () => {
    expect(reason('git commit -m x', '/repos/declared')).toContain(
      '`scripts/guarded-commit.sh -C <worktree> <branch> -- <git commit args>`',
    );
  });
  test('a declared replacement whose file is missing routes to the skill', () => {
    const text = reason('git push', '/repos/declared');
    expect(text).not.toContain('guarded-push.sh');
    expect(text).toContain('`repo-profile` skill');
  });
  test('no declaration routes to the skill', () =>
    expect(reason('git push', '/repos/managed')).toContain('`repo-profile` skill'));
  test('an unreadable profile is the default profile: still denied, routed to the skill', () => {
    const world = { ...standardWorld, files: { ...standardWorld.files } };
    const context = {
      ...fakeContext({}, world),
      readText: () => ({ ok: false, reason: 'unreadable', message: 'EACCES' }) as const,
    };
    const verdict = evaluate(bashCall('git push', '/repos/declared'), context);
    expect(verdict.kind).toBe('deny');
    expect('reason' in verdict ? verdict.reason : '').toContain('`repo-profile` skill');
  });
  test('a malformed profile is the default profile: every kind denied', () => {
    const world = {
      ...standardWorld,
      files: {
        ...standardWorld.files,
        '/repos/narrow/.claude/skills/repo-profile.md': '---\ngit-write-gate:\n  deny: push\n---\n',
      },
    };
    expect(evaluate(bashCall('git commit -m x', '/repos/narrow'), fakeContext({}, world)).kind).toBe('deny');
  });
});
