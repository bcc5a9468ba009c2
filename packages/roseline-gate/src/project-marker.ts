import type { PathFlavor } from './csharp-path.ts';

/** One entry of a folder listing. */
export interface FolderEntry {
  name: string;
  isFolder: boolean; // a real folder; a symbolic link to one is false, so the search never loops
}

/** Lists a folder; null when it cannot be read (missing, not a folder, no permission). */
export type ListFolder = (dir: string) => FolderEntry[] | null;

/** Where the project marker search found evidence, or why it has none. */
export type MarkerSearch =
  | { found: true; marker: string; kind: 'csproj' | 'sln'; via: 'walk-up' | 'cwd' } // marker: absolute path
  | { found: false; reason: 'unmarked' } // searched everywhere it may: a plain answer
  | { found: false; reason: 'too-deep' | 'unreadable-folder' | 'too-many-folders'; dir: string }; // a doubt

/** The bounds of the search; the defaults are the spec's. */
export interface MarkerSearchLimits {
  maxLevelsUp: number; // folders examined walking up, the file's own folder included
  maxLevelsDown: number; // levels below the payload cwd
  maxFoldersDown: number; // folders listed below the cwd, so a huge tree cannot outrun the host's timeout
}

/** The spec's bounds: 40 levels up, 3 levels down, and at most 2000 folders listed down. */
export const defaultMarkerSearchLimits: MarkerSearchLimits = {
  maxLevelsUp: 40,
  maxLevelsDown: 3,
  maxFoldersDown: 2000,
};

// Roseline's discovery opens `.sln` and `.csproj` only: a `.slnx` is deliberately no marker (#699).
const markerKinds = [
  { kind: 'csproj', suffix: '.csproj' },
  { kind: 'sln', suffix: '.sln' },
] as const;

/**
 * The marker among one folder's entries: the first `*.csproj` in name order, else the first `*.sln`
 * (any case); a folder that happens to carry such a name is none.
 */
export function markerIn(entries: FolderEntry[]): { name: string; kind: 'csproj' | 'sln' } | null {
  for (const { kind, suffix } of markerKinds) {
    const names = entries
      .filter(
        (entry) =>
          !entry.isFolder && entry.name.length > suffix.length && entry.name.toLowerCase().endsWith(suffix),
      )
      .map((entry) => entry.name);
    const first = names.sort()[0];
    if (first !== undefined) return { name: first, kind };
  }
  return null;
}

/**
 * Looks for a project marker: up from `fileDir` (the first folder holding a marker wins), then, when
 * the walk reaches the file-system root with none, in `cwd` and up to `maxLevelsDown` levels below it.
 * A walk that stops before the root, a folder that cannot be read, or a cwd tree too big to list is
 * a doubt, never a plain "unmarked".
 */
export function findProjectMarker(
  fileDir: string,
  cwd: string | null,
  flavor: PathFlavor,
  listFolder: ListFolder,
  limits: MarkerSearchLimits = defaultMarkerSearchLimits,
): MarkerSearch {
  let dir = fileDir;
  for (let level = 1; ; level++) {
    const entries = listFolder(dir);
    if (entries === null) return { found: false, reason: 'unreadable-folder', dir };
    const marker = markerIn(entries);
    if (marker)
      return { found: true, marker: flavor.join(dir, marker.name), kind: marker.kind, via: 'walk-up' };
    const parent = flavor.dirname(dir);
    if (parent === dir) break;
    if (level >= limits.maxLevelsUp) return { found: false, reason: 'too-deep', dir };
    dir = parent;
  }
  if (cwd === null) return { found: false, reason: 'unmarked' };
  return findMarkerBelow(cwd, flavor, listFolder, limits);
}

// Breadth first, so the shallowest marker wins and a big tree is cut at its deepest level.
function findMarkerBelow(
  cwd: string,
  flavor: PathFlavor,
  listFolder: ListFolder,
  limits: MarkerSearchLimits,
): MarkerSearch {
  let level: string[] = [cwd];
  let listed = 0;
  for (let depth = 0; depth <= limits.maxLevelsDown && level.length > 0; depth++) {
    const next: string[] = [];
    for (const dir of level) {
      if (++listed > limits.maxFoldersDown) return { found: false, reason: 'too-many-folders', dir };
      const entries = listFolder(dir);
      if (entries === null) return { found: false, reason: 'unreadable-folder', dir };
      const marker = markerIn(entries);
      if (marker)
        return { found: true, marker: flavor.join(dir, marker.name), kind: marker.kind, via: 'cwd' };
      if (depth < limits.maxLevelsDown) {
        const folders = entries.filter((entry) => entry.isFolder && isSearchedFolderName(entry.name));
        for (const name of folders.map((entry) => entry.name).sort()) next.push(flavor.join(dir, name));
      }
    }
    level = next;
  }
  return { found: false, reason: 'unmarked' };
}

// Hidden folders (.git, .vs) and package caches hold no project of the user's.
function isSearchedFolderName(name: string): boolean {
  return !name.startsWith('.') && name !== 'node_modules';
}
