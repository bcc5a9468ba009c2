import { accessSync, constants, statSync } from 'node:fs';
import { isAbsolute, join, posix, win32 } from 'node:path';

const defaultPathExt = '.COM;.EXE;.BAT;.CMD';

/**
 * The full path of an executable `name` found on the env's PATH, or null. No subprocess.
 * POSIX: an entry must be a regular file with an execute bit for this process. win32: PATH and
 * PATHEXT are read case-insensitively and each PATHEXT extension is tried. A name holding a path
 * separator is never searched, and neither is a relative PATH entry: an empty one (the current
 * folder on POSIX), `.`, `bin`, `~/bin`, and on win32 `C:bin` (relative to that drive's folder).
 */
export function onPath(
  name: string,
  env: Record<string, string | undefined>,
  platform: NodeJS.Platform = process.platform,
): string | null {
  const windows = platform === 'win32';
  const delimiter = windows ? win32.delimiter : posix.delimiter;
  if (name === '' || name.includes('/') || (windows && name.includes('\\'))) return null;
  const pathList = (windows ? readEnvInsensitive(env, 'PATH') : env.PATH) ?? '';
  const candidates = windows ? windowsNames(name, readEnvInsensitive(env, 'PATHEXT')) : [name];
  // Windows has no execute bit: a file with a PATHEXT extension runs.
  const isRunnable = windows ? isFile : isExecutableFile;

  for (const rawEntry of pathList.split(delimiter)) {
    const entry = windows ? rawEntry.replace(/^"(.*)"$/, '$1') : rawEntry;
    // A relative entry is searched from whatever folder a command is started in: finding the name
    // there now proves nothing about the process that will run it. A rooted win32 entry (`\tools`)
    // depends only on the current drive, which the host's processes share. The host's own path
    // rules, as for the join below: on Windows they are win32's; elsewhere `platform` only changes
    // the lookup rules.
    if (!isAbsolute(entry)) continue;
    for (const candidate of candidates) {
      const full = join(entry, candidate);
      if (isRunnable(full)) return full;
    }
  }
  return null;
}

function windowsNames(name: string, pathExt: string | undefined): string[] {
  const extensions = (pathExt || defaultPathExt).split(';').filter((ext) => ext !== '');
  const lower = name.toLowerCase();
  const hasKnownExt = extensions.some((ext) => lower.endsWith(ext.toLowerCase()));
  const withExt = extensions.map((ext) => name + ext);
  return hasKnownExt ? [name, ...withExt] : withExt;
}

function readEnvInsensitive(env: Record<string, string | undefined>, key: string): string | undefined {
  if (env[key] !== undefined) return env[key];
  const found = Object.keys(env).find((k) => k.toUpperCase() === key);
  return found === undefined ? undefined : env[found];
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

function isExecutableFile(file: string): boolean {
  if (!isFile(file)) return false;
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
