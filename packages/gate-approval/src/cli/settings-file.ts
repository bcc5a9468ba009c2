import {
  access,
  chmod,
  constants,
  lstat,
  mkdir,
  readFile,
  readlink,
  rename,
  stat,
  unlink,
  writeFile,
} from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { isJsonObject, type Outcome } from '@kit/fail-open';

/** A settings document: a JSON object whose `hooks` / `hooks.PreToolUse`, when present, have the right types. */
export type SettingsDocument = Record<string, unknown>;

/** How the file was laid out, so a rewrite keeps it. */
export interface TextStyle {
  indent: string; // '  ', '    ', '\t', or '' for a one-line file
  eol: '\n' | '\r\n';
  bom: boolean; // the file starts with a UTF-8 byte-order mark, which a rewrite keeps
}

/** A settings file that could be used: absent, or there with its text, document and layout. */
export type SettingsFile =
  | { exists: false }
  | { exists: true; text: string; document: SettingsDocument; style: TextStyle };

/** Why a settings file cannot be used: it cannot be read, is not JSON, or does not have the settings' shape. */
export type SettingsProblem = 'unreadable' | 'invalid-json' | 'bad-shape';

const defaultStyle: TextStyle = { indent: '  ', eol: '\n', bom: false };

/**
 * Reads and checks a settings file. Never throws; a file it cannot use comes with a one-line
 * message. An empty file (or one of whitespace and a byte-order mark) is `{}`.
 */
export async function readSettings(path: string): Promise<Outcome<SettingsFile, SettingsProblem>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return { ok: true, value: { exists: false } };
    return { ok: false, reason: 'unreadable', message: `cannot read ${path}: ${describeError(error)}` };
  }
  const bom = text.charCodeAt(0) === 0xfeff;
  const body = bom ? text.slice(1) : text;
  if (body.trim() === '')
    return { ok: true, value: { exists: true, text, document: {}, style: { ...defaultStyle, bom } } };
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch (error) {
    return {
      ok: false,
      reason: 'invalid-json',
      message: `${path} is not valid JSON (${describeError(error)}); fix it by hand, nothing was changed`,
    };
  }
  const problem = shapeProblem(parsed);
  if (problem !== null)
    return {
      ok: false,
      reason: 'bad-shape',
      message: `${path}: ${problem}; fix it by hand, nothing was changed`,
    };
  const document = parsed as SettingsDocument;
  return { ok: true, value: { exists: true, text, document, style: { ...detectStyle(body), bom } } };
}

/**
 * readSettings for a host's file: the same read, plus the host's own shape check (its event's key),
 * whose problem refuses the file the same way.
 */
export async function readHostSettings(
  path: string,
  hostShapeProblem: (document: SettingsDocument) => string | null,
): Promise<Outcome<SettingsFile, SettingsProblem>> {
  const read = await readSettings(path);
  if (!read.ok || !read.value.exists) return read;
  const problem = hostShapeProblem(read.value.document);
  if (problem === null) return read;
  return {
    ok: false,
    reason: 'bad-shape',
    message: `${path}: ${problem}; fix it by hand, nothing was changed`,
  };
}

function shapeProblem(parsed: unknown): string | null {
  if (!isJsonObject(parsed)) return 'the file does not hold a JSON object';
  if (parsed.hooks === undefined) return null;
  if (!isJsonObject(parsed.hooks)) return '"hooks" is not an object';
  const preToolUse = parsed.hooks.PreToolUse;
  if (preToolUse !== undefined && !Array.isArray(preToolUse)) return '"hooks.PreToolUse" is not an array';
  return null;
}

/** The indentation and line ending of a JSON text; two spaces and \n when it shows none. */
export function detectStyle(text: string): Omit<TextStyle, 'bom'> {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== '');
  if (lines.length === 1 && text.trim().length > 2) return { indent: '', eol };
  const indented = lines.slice(1).find((line) => /^[ \t]+\S/.test(line));
  const indent = indented ? (/^[ \t]+/.exec(indented)?.[0] ?? defaultStyle.indent) : defaultStyle.indent;
  return { indent, eol };
}

/** A settings document as text in the given style, ending with a line break. */
export function formatSettings(document: SettingsDocument, style: TextStyle = defaultStyle): string {
  const text = JSON.stringify(document, null, style.indent);
  return `${style.bom ? '\uFEFF' : ''}${style.eol === '\n' ? text : text.replace(/\n/g, '\r\n')}${style.eol}`;
}

/** The backup kept beside a settings file before each rewrite. */
export function backupPathOf(settingsPath: string): string {
  return `${settingsPath}.bak`;
}

const maxSymlinkHops = 40;

/**
 * The file a write to `path` must land in: `path` itself, or, when it is a symlink, the file at the
 * end of its chain, followed by hand so that a dangling link names the file to create rather than
 * being replaced by one. A loop of links ends at the last link reached.
 */
export async function resolveWriteTarget(path: string): Promise<string> {
  let current = resolve(path);
  for (let hop = 0; hop < maxSymlinkHops; hop += 1) {
    const isLink = await lstat(current).then(
      (s) => s.isSymbolicLink(),
      () => false,
    );
    if (!isLink) return current;
    current = resolve(dirname(current), await readlink(current));
  }
  return current;
}

/**
 * Why a settings file that exists cannot be rewritten, or null: it has no write bit at all (which
 * root would ignore: the owner made it read-only on purpose), or the system refuses to write it
 * (an immutable file, a read-only mount, another owner).
 */
export async function readOnlyProblem(target: string): Promise<string | null> {
  const mode = await stat(target).then(
    (s) => s.mode,
    () => null,
  );
  if (mode === null) return null;
  if ((mode & 0o222) === 0) return `${target} is read-only (mode ${(mode & 0o777).toString(8)})`;
  try {
    await access(target, constants.W_OK);
    return null;
  } catch (error) {
    return `${target} cannot be written (${describeError(error)})`;
  }
}

/**
 * Writes `target` (a real file path, see resolveWriteTarget) atomically: a temp file in the same
 * folder, then a rename over it. The previous text, when given, is kept in `<target>.bak` first.
 * The file mode is kept.
 */
export async function writeAtomically(target: string, text: string, previous: string | null): Promise<void> {
  await mkdir(dirname(target), { recursive: true });
  const mode = await stat(target).then(
    (s) => s.mode & 0o777,
    () => null,
  );
  if (previous !== null) await replaceFile(backupPathOf(target), previous, mode);
  await replaceFile(target, text, mode);
}

async function replaceFile(target: string, text: string, mode: number | null): Promise<void> {
  const temp = `${target}.${process.pid}.${Date.now().toString(36)}.tmp`;
  try {
    await writeFile(temp, text, { flag: 'wx' });
    if (mode !== null) await chmod(temp, mode);
    await rename(temp, target);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}

/** An fs error's code ('ENOENT'), or undefined. */
export function errorCode(error: unknown): string | undefined {
  return isJsonObject(error) && typeof error.code === 'string' ? error.code : undefined;
}

/** A short one-line description of an error. */
export function describeError(error: unknown): string {
  const code = errorCode(error);
  const message = error instanceof Error ? error.message : String(error);
  const firstLine = message.split('\n')[0] ?? '';
  return code && !firstLine.includes(code) ? `${code}: ${firstLine}` : firstLine;
}
