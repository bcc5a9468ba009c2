import { delimiter, resolve, sep } from 'node:path';
import { repoRoot } from '@kit/test-kit';

/**
 * The machine's PATH without the workspace's own folders. Run through pnpm, PATH starts with
 * node_modules/.bin folders that hold the guards' bins as workspace links; the scenarios must only
 * ever reach a guard the way a user does (npx from the registry, or the project's own install).
 */
export function machinePath(): string {
  const inWorkspace = (entry: string) =>
    resolve(entry) === repoRoot || resolve(entry).startsWith(repoRoot + sep);
  return (process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin')
    .split(delimiter)
    .filter((entry) => entry !== '' && !inWorkspace(entry))
    .join(delimiter);
}

/** machinePath with `dirs` in front. */
export function pathWith(...dirs: string[]): string {
  return [...dirs, machinePath()].join(delimiter);
}
