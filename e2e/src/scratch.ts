import { rm } from 'node:fs/promises';
import { freshTempDir, initRepo, type Tree } from '@kit/test-kit';

const made: string[] = [];

/** A fresh folder under the OS temp dir (real path: the CLI's transcript folder is named after it). */
export async function scratchDir(label: string): Promise<string> {
  const dir = freshTempDir(`kit-e2e-${label}`);
  made.push(dir);
  return dir;
}

/** A temp git repository holding `tree` and a README, committed once. */
export async function scratchRepo(label: string, tree: Tree = {}): Promise<string> {
  return initRepo(await scratchDir(label), { 'README.md': `# ${label}\n`, ...tree });
}

/** Removes every folder made by scratchDir in this process, unless KIT_E2E_KEEP is set (to look at them). */
export async function removeScratch(): Promise<void> {
  if (process.env.KIT_E2E_KEEP) return;
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
}
