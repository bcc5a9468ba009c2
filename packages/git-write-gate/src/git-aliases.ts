import { dirname, isAbsolute, join, resolve } from 'node:path';

/** Reads a config file's text, or null when it is absent or cannot be read (bounded by the reader). */
export type ReadConfig = (path: string) => string | null;

/** An alias as git's config gives it: its value, undefined where no file defines it, null where a file cannot be told. */
export type AliasValue = string | null | undefined;

// How deep `[include] path = …` is followed, and how large a config file is read.
const maxIncludeDepth = 4;
export const maxConfigBytes: number = 1024 * 1024;

/**
 * `alias.<name>` as git reads it (spec step 8): from the system file, the user's (XDG, then
 * ~/.gitconfig) and the repository's, the last definition winning, `[include]` and `[includeIf]`
 * paths followed (every one, whatever its condition: over-inclusive). No subprocess; each file
 * read once, bounded. A file over the bound, or an include the gate cannot resolve, makes the
 * answer null when no later file settles it.
 */
export function aliasFromFiles(
  name: string,
  files: readonly string[],
  read: ReadConfig,
  home: string | undefined,
): AliasValue {
  let value: AliasValue;
  for (const file of files) {
    const found = aliasInFile(name, file, { read, home }, 0);
    if (found !== undefined) value = found;
  }
  return value;
}

/**
 * The config files git reads for a repository whose git directory is `gitDir`, in the order git
 * reads them: the system's (GIT_CONFIG_SYSTEM, none under GIT_CONFIG_NOSYSTEM), the user's
 * (GIT_CONFIG_GLOBAL alone when set, else the XDG file and ~/.gitconfig), the repository's.
 */
export function configFiles(env: Record<string, string | undefined>, gitDir: string | null): string[] {
  const files: string[] = [];
  if (!isTrue(env.GIT_CONFIG_NOSYSTEM)) files.push(env.GIT_CONFIG_SYSTEM || '/etc/gitconfig');
  const home = env.HOME;
  const xdg = env.XDG_CONFIG_HOME || (home ? join(home, '.config') : undefined);
  if (env.GIT_CONFIG_GLOBAL) files.push(env.GIT_CONFIG_GLOBAL);
  else {
    if (xdg) files.push(join(xdg, 'git', 'config'));
    if (home) files.push(join(home, '.gitconfig'));
  }
  if (gitDir !== null) files.push(join(gitDir, 'config'));
  return files;
}

// git's boolean: GIT_CONFIG_NOSYSTEM=1 (or true, yes, on) turns the system file off.
function isTrue(value: string | undefined): boolean {
  return value !== undefined && /^(1|true|yes|on)$/i.test(value.trim());
}

function aliasInFile(
  name: string,
  file: string,
  reader: { read: ReadConfig; home: string | undefined },
  depth: number,
): AliasValue {
  const text = reader.read(file);
  if (text === null) return undefined;
  if (text.length > maxConfigBytes) return null;
  let value: AliasValue;
  let section = '';
  for (const line of logicalLines(text)) {
    const header = /^\s*\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]\s*(.*)$/.exec(line);
    let entry = line;
    if (header !== null) {
      section = `${(header[1] as string).toLowerCase()}${header[2] === undefined ? '' : `.${header[2]}`}`;
      entry = header[3] ?? '';
    }
    const pair = /^\s*([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$/.exec(entry);
    if (pair === null) continue;
    const key = (pair[1] as string).toLowerCase();
    const raw = pair[2];
    if (section === 'alias' && key === name.toLowerCase())
      value = raw === undefined ? null : configValue(raw);
    else if (
      (section === 'include' || section.startsWith('includeif.')) &&
      key === 'path' &&
      raw !== undefined
    ) {
      const included = includePath(configValue(raw), file, reader.home);
      const found =
        included === null || depth >= maxIncludeDepth ? null : aliasInFile(name, included, reader, depth + 1);
      if (found !== undefined) value = found;
    }
  }
  return value;
}

/** Lines with their `\` continuations joined. */
function logicalLines(text: string): string[] {
  return text.replace(/\\\r?\n/g, '').split(/\r?\n/);
}

/** A value as git reads it: comments (`#`, `;`) outside quotes dropped, quotes removed, `\"` `\\` `\n` `\t` read. */
function configValue(raw: string): string {
  let out = '';
  let quoted = false;
  for (let i = 0; i < raw.length; i += 1) {
    const char = raw.charAt(i);
    if (char === '\\') {
      const next = raw.charAt(i + 1);
      out += next === 'n' ? '\n' : next === 't' ? '\t' : next;
      i += 1;
    } else if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '#' || char === ';')) break;
    else out += char;
  }
  return out.trim();
}

function includePath(path: string, from: string, home: string | undefined): string | null {
  if (path.startsWith('~/')) return home === undefined ? null : join(home, path.slice(2));
  if (isAbsolute(path)) return path;
  return resolve(dirname(from), path);
}

/** What the alias reader needs of the world: the hook's env and the file probes (a GuardContext). */
export interface AliasWorld {
  env: Record<string, string | undefined>;
  readText: (path: string) => { ok: true; value: string } | { ok: false };
  isFile: (path: string) => boolean;
  findWorkTreeTop: (dir: string) => string | null;
}

/** alias.<name> as git would read it in a directory, each config file read once per call. */
export function aliasReaderOf(world: AliasWorld): (name: string, directory: string) => AliasValue {
  const texts = new Map<string, string | null>();
  const read: ReadConfig = (path) => {
    if (!texts.has(path)) {
      const text = world.readText(path);
      texts.set(path, text.ok ? text.value : null);
    }
    return texts.get(path) ?? null;
  };
  return (name, directory) =>
    aliasFromFiles(name, configFiles(world.env, gitDirOf(directory, world, read)), read, world.env.HOME);
}

/** The git directory whose config a repository reads: `.git`, a `.git` file's `gitdir:`, then its `commondir`. */
function gitDirOf(directory: string, world: AliasWorld, read: ReadConfig): string | null {
  const top = world.findWorkTreeTop(directory);
  if (top === null) return null;
  let gitDir = join(top, '.git');
  if (world.isFile(gitDir)) {
    const line = /^gitdir:[ \t]*(.+?)[ \t]*\r?$/m.exec(read(gitDir) ?? '');
    if (line === null) return null;
    gitDir = resolve(top, line[1] as string);
  }
  const common = read(join(gitDir, 'commondir'));
  return common === null ? gitDir : resolve(gitDir, common.trim());
}
