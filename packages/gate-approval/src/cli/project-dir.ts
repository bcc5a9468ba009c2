import { stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

/**
 * What Claude Code substitutes in a handler's `args` with the folder it was started in (2.1.332:
 * the braced form only; `$CLAUDE_PROJECT_DIR`, `~` and `$HOME` reach the hook as written). A
 * project entry that names its bundle through it runs in every clone of the repository.
 */
export const projectDirPlaceholder = '${CLAUDE_PROJECT_DIR}';

/** An argument with the project placeholder replaced by `projectDir`, as the host runs it. */
export function expandProjectDir(arg: string, projectDir: string): string {
  return arg.split(projectDirPlaceholder).join(projectDir);
}

const maxLevels = 256;

/**
 * The project a `--project` or `--local` install belongs to: the top of the git work tree holding
 * `cwd` (the first folder above it with a `.git` folder or file), or `cwd` itself outside one. No
 * subprocess.
 */
export async function findProjectDir(cwd: string): Promise<string> {
  let current = resolve(cwd);
  for (let level = 0; level < maxLevels; level += 1) {
    if (await exists(resolve(current, '.git'))) return current;
    const parent = dirname(current);
    if (parent === current) break;
    current = parent;
  }
  return resolve(cwd);
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isDirectory() || s.isFile(),
    () => false,
  );
}
