import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { type Tree, tempDir, writeTree } from './temp-tree.ts';

/**
 * The global config file tests name: a path under /dev/null, which no one can create. git reads it
 * as absent, and a `git config --global` a test (or a command under test) runs fails instead of
 * renaming its lock file over the path: with GIT_CONFIG_GLOBAL=/dev/null, run as root, that rename
 * replaces the machine's /dev/null with a regular file (seen on the shared test machine).
 */
const noGlobalConfig = '/dev/null/kit-test-no-global-config';

/**
 * No user or system config (hooks, signing, a default branch of its own) and a fixed identity, so
 * the machine's git setup cannot change a test: for git run by a test, and the environment of a CLI
 * that runs git itself.
 */
export const gitIdentity: Record<string, string> = {
  GIT_CONFIG_GLOBAL: noGlobalConfig,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'kit-test',
  GIT_AUTHOR_EMAIL: 'kit-test@example.invalid',
  GIT_COMMITTER_NAME: 'kit-test',
  GIT_COMMITTER_EMAIL: 'kit-test@example.invalid',
};

/** Runs real git in `dir` with no user or system config; returns its stdout, throws when git fails. */
export function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'init.defaultBranch=main', ...args], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, ...gitIdentity },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Makes `dir` (created if missing) a real git repository, branch main, holding `tree` in one commit. */
export function initRepo(dir: string, tree: Tree = {}): string {
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q');
  writeTree(dir, tree);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '--allow-empty', '-m', 'initial');
  return dir;
}

/** A real git repository (`git init`, branch main) in a fresh tempDir, holding `tree` in one commit. */
export function tempRepo(tree: Tree = {}, label = 'kit-repo'): string {
  return initRepo(tempDir(label), tree);
}
