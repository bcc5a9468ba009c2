/**
 * Everything `evaluate` may learn about the world: the environment, the raw stdin text, and the
 * file-system probes. A test passes a plain object; the hook passes `realContext(runtime)`.
 * No probe may throw: a probe that fails answers false / null.
 */
export interface GuardContext {
  env: Record<string, string | undefined>;
  raw?: string; // the stdin text as the hook read it: strict mode judges an unreadable payload on it
  isDirectory: (path: string) => boolean;
  isFile: (path: string) => boolean; // a regular file (after symlinks)
  readText: (path: string) => string | null;
  findWorkTreeTop: (dir: string) => string | null; // the folder holding `.git` (a folder, or a file with `gitdir:`)
}
