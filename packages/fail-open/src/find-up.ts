import { readdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** Options of `findUp`. */
export interface FindUpOptions {
  maxLevels?: number; // folders examined at most, the start folder included; default 64
  stopAt?: string; // the last folder examined (e.g. the work-tree top or the home folder)
}

/** Where `findUp` stopped: a match, a walk cut short by `maxLevels`, or null (root or `stopAt` reached). */
export type FindUpOutcome = { dir: string; found: string } | { exhausted: true } | null;

/**
 * Walks up from `startDir`, calling `match(dir, entryNames)` in each folder, and returns the first
 * non-null answer with its folder. A folder that cannot be listed is treated as holding no match
 * and the walk goes on; it never throws for the file system (a throw from `match` is the caller's).
 */
export function findUp(
  startDir: string,
  match: (dir: string, entries: string[]) => string | null,
  options: FindUpOptions = {},
): FindUpOutcome {
  const maxLevels = options.maxLevels ?? 64;
  const stopAt = options.stopAt === undefined ? undefined : resolve(options.stopAt);
  let current = resolve(startDir);
  for (let level = 0; level < maxLevels; level += 1) {
    const found = match(current, listEntries(current));
    if (found !== null) return { dir: current, found };
    const parent = dirname(current);
    if (current === stopAt || parent === current) return null;
    current = parent;
  }
  return { exhausted: true };
}

function listEntries(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
