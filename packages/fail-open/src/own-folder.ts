import { lstatSync } from 'node:fs';

/** Why a folder cannot be used as the user's own: there is none, or someone else could have made or entered it. */
export type FolderProblem = 'none' | 'unsafe-folder';

/** No one else may enter (the verdict server's folder and mailbox). */
export const closedToOthers = 0o077;
/** No one else may write (a code cache: machine code's recipe). */
export const unwritableByOthers = 0o022;

/**
 * The kit's one "a folder of the user's own" check: `folder` is a real folder (not a link), owned by
 * this user, with none of the `othersMode` bits set. The temp folder is shared, so someone else
 * could have made the kit's folder there first; such a folder is refused and left untouched. On
 * Windows (no uids) the temp folder is per user: a folder there is the user's. Never throws.
 */
export function folderProblem(folder: string, othersMode: number): FolderProblem | null {
  let stat: import('node:fs').Stats;
  try {
    stat = lstatSync(folder);
  } catch {
    return 'none';
  }
  if (!stat.isDirectory()) return 'unsafe-folder';
  if (typeof process.getuid !== 'function') return null;
  return stat.uid === process.getuid() && (stat.mode & othersMode) === 0 ? null : 'unsafe-folder';
}
