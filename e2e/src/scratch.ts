import { freshTempDir, initRepo, removeTree, type Tree } from '@kit/test-kit';

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

/**
 * Removes every folder made by scratchDir in this process, unless KIT_E2E_KEEP is set (to look at
 * them). A verdict server a run's hook started may still be starting in a scratch HOME's TMPDIR:
 * removeTree renames the folder away first, so the server finds its paths gone and ends.
 */
export async function removeScratch(): Promise<void> {
  if (process.env.KIT_E2E_KEEP) return;
  for (const dir of made.splice(0)) removeTree(dir);
}
