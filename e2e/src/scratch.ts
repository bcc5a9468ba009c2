import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A tree of files to write: relative path → content. */
export type Tree = Record<string, string>;

const made: string[] = [];

/** A fresh folder under the OS temp dir (real path: the CLI's transcript folder is named after it). */
export async function scratchDir(label: string): Promise<string> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), `kit-e2e-${label}-`)));
  made.push(dir);
  return dir;
}

/** Writes `tree` under `root`. */
export async function writeTree(root: string, tree: Tree): Promise<void> {
  for (const [path, content] of Object.entries(tree)) {
    const file = join(root, path);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, content);
  }
}

/** An identity and no machine config for git: for the suite's own git calls and the CLI's environment. */
export const gitIdentity: Record<string, string> = {
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'e2e',
  GIT_AUTHOR_EMAIL: 'e2e@example.invalid',
  GIT_COMMITTER_NAME: 'e2e',
  GIT_COMMITTER_EMAIL: 'e2e@example.invalid',
};

/** Runs git in `dir` with an identity and no user or system config, so the machine's own git setup
 * (hooks, signing) cannot change a scenario. */
export function git(dir: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, ...gitIdentity },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** A temp git repository holding `tree`, committed once. */
export async function scratchRepo(label: string, tree: Tree = {}): Promise<string> {
  const dir = await scratchDir(label);
  git(dir, 'init', '-q', '-b', 'main');
  await writeTree(dir, { 'README.md': `# ${label}\n`, ...tree });
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'initial');
  return dir;
}

/** Removes every folder made by scratchDir in this process, unless KIT_E2E_KEEP is set (to look at them). */
export async function removeScratch(): Promise<void> {
  if (process.env.KIT_E2E_KEEP) return;
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
}
