// `git-write-gate init`: the repo-profile skill in the layout Claude Code loads, the gate's block in
// it naming a route that runs, and that route (agent-branch.sh) in a scratch repository: the commit
// lands on the agent's own branch, nothing is written to the shared branch, index or work tree, and
// two processes at once both land. A user's existing profile is never overwritten without --force.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '@kit/gate-approval';
import { git, gitIdentity, recordingIO, tempDir, tempRepo } from '@kit/test-kit';
import { describe, expect, test } from 'vitest';
import { guardDefinition } from '../src/guard.ts';
import { initRepository } from '../src/init.ts';
import { profileRelativePath, skillRelativePath } from '../src/probe.ts';
import { parseProfile } from '../src/profile.ts';

const home = tempDir('git-write-gate-init-home');
const route = '.claude/skills/repo-profile/agent-branch.sh';

/** A repository with one commit on main and a bare remote named origin. */
function sharedCheckout(): { repo: string; remote: string } {
  const remote = tempDir('init-remote');
  git(remote, 'init', '-q', '--bare');
  const repo = tempRepo({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
  git(repo, 'branch', '-M', 'main');
  git(repo, 'remote', 'add', 'origin', remote);
  return { repo, remote };
}
const initialised = () => {
  const { repo, remote } = sharedCheckout();
  expect(initRepository(repo, false).code).toBe(0);
  return { repo, remote };
};
const env = { ...process.env, ...gitIdentity };
const runRoute = (repo: string, args: string[]) =>
  spawnSync(join(repo, route), args, { cwd: repo, encoding: 'utf8', env });
const snapshot = (repo: string) => ({
  main: git(repo, 'rev-parse', 'main').trim(),
  status: git(repo, 'status', '--porcelain'),
  staged: git(repo, 'diff', '--cached', '--name-only'),
});

describe('init writes the profile', { timeout: 120_000 }, () => {
  test('SKILL.md with name, a description, and the block naming the route for commit and push', () => {
    const { repo } = initialised();
    const text = readFileSync(join(repo, skillRelativePath), 'utf8');
    expect(text).toMatch(/^---\nname: repo-profile\ndescription: \S.{20,}\n/);
    const profile = parseProfile(text);
    expect(profile.replacements.commit).toMatch(/^\.claude\/skills\/repo-profile\/agent-branch\.sh commit /);
    expect(profile.replacements.push).toMatch(/^\.claude\/skills\/repo-profile\/agent-branch\.sh push /);
    expect(statSync(join(repo, route)).mode & 0o111).not.toBe(0);
  });

  test('after init the gate applies, and its deny reason names the route; before, it is silent', async () => {
    const { repo } = sharedCheckout();
    const explain = async () => {
      const io = recordingIO({ cwd: repo, env: {}, home });
      await runCli(guardDefinition, ['explain', 'git commit -m x', '--json'], io);
      return JSON.parse(io.out());
    };
    expect(await explain()).toMatchObject({ verdict: 'none' });
    const io = recordingIO({ cwd: repo, env: {}, home });
    expect(await runCli(guardDefinition, ['init'], io)).toBe(0);
    const after = await explain();
    expect(after).toMatchObject({ verdict: 'deny', rule: 'commit' });
    expect(JSON.stringify(after)).toContain(`${route} commit <your-branch>`);
  });

  test.each([
    [skillRelativePath, '---\nname: repo-profile\ndescription: ours\n---\nOur own rules.\n'],
    [profileRelativePath, '---\nname: repo-profile\n---\nOur own flat profile.\n'],
  ])('an existing %s is left as it is (exit 1); --force replaces it', async (path, mine) => {
    const { repo } = sharedCheckout();
    const file = join(repo, path);
    spawnSync('mkdir', ['-p', join(file, '..')]);
    writeFileSync(file, mine);
    const refused = recordingIO({ cwd: repo, env: {}, home });
    expect(await runCli(guardDefinition, ['init'], refused)).toBe(1);
    expect(refused.err()).toContain('left as it is');
    expect(readFileSync(file, 'utf8')).toBe(mine);
    expect(
      await runCli(guardDefinition, ['init', '--force'], recordingIO({ cwd: repo, env: {}, home })),
    ).toBe(0);
    expect(readFileSync(join(repo, skillRelativePath), 'utf8')).toContain('git-write-gate:');
  });

  test('outside a work tree: exit 1, nothing written', () => {
    const dir = tempDir('init-outside');
    expect(initRepository(dir, false).code).toBe(1);
    expect(existsSync(join(dir, '.claude'))).toBe(false);
  });
});

describe('the route agent-branch.sh', { timeout: 120_000 }, () => {
  test('commit lands on the agent branch from main; main, index and work tree untouched; push sends only it', () => {
    const { repo, remote } = initialised();
    writeFileSync(join(repo, 'a.txt'), 'a, changed\n');
    writeFileSync(join(repo, 'b.txt'), 'b, changed by another agent\n');
    git(repo, 'add', 'b.txt'); // another agent's staged change, in the shared index
    const before = snapshot(repo);
    const committed = runRoute(repo, ['commit', 'agent/one', '-m', 'change a', '--', 'a.txt']);
    expect(committed.status, committed.stderr).toBe(0);
    expect(snapshot(repo)).toEqual(before);
    expect(git(repo, 'show', 'agent/one:a.txt')).toBe('a, changed\n');
    expect(git(repo, 'show', 'agent/one:b.txt')).toBe('b\n');
    expect(git(repo, 'rev-parse', 'agent/one^').trim()).toBe(before.main);
    const pushed = runRoute(repo, ['push', 'agent/one']);
    expect(pushed.status, pushed.stderr).toBe(0);
    expect(git(remote, 'for-each-ref', '--format=%(refname)')).toBe('refs/heads/agent/one\n');
  });

  test.each([['main'], ['not a branch..']])(
    'refuses %s (a checked-out branch, a bad name): nothing moves',
    (branch) => {
      const { repo } = initialised();
      writeFileSync(join(repo, 'a.txt'), 'a, changed\n');
      const before = snapshot(repo);
      const refused = runRoute(repo, ['commit', branch, '-m', 'x', '--', 'a.txt']);
      expect(refused.status).toBe(1);
      expect(snapshot(repo)).toEqual(before);
    },
  );

  test('two processes at once on the same branch: both commits land, main stays', async () => {
    const { repo } = initialised();
    writeFileSync(join(repo, 'a.txt'), 'a from one\n');
    writeFileSync(join(repo, 'b.txt'), 'b from two\n');
    const main = git(repo, 'rev-parse', 'main').trim();
    const start = (path: string) =>
      new Promise<number | null>((done) => {
        const child = spawn(
          join(repo, route),
          ['commit', 'agent/shared', '-m', `change ${path}`, '--', path],
          {
            cwd: repo,
            env,
            stdio: 'ignore',
          },
        );
        child.on('close', done);
      });
    expect(await Promise.all([start('a.txt'), start('b.txt')])).toEqual([0, 0]);
    expect(git(repo, 'rev-list', '--count', `${main}..agent/shared`).trim()).toBe('2');
    expect(git(repo, 'show', 'agent/shared:a.txt')).toBe('a from one\n');
    expect(git(repo, 'show', 'agent/shared:b.txt')).toBe('b from two\n');
    expect(git(repo, 'rev-parse', 'main').trim()).toBe(main);
  });
});
