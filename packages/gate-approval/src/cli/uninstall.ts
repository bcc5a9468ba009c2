import { readFile, rmdir, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { CliIO, GuardDefinition } from '../guard.ts';
import { parseArgs } from './args.ts';
import { findOwnHandlers, planUninstall } from './handler.ts';
import { diffLines } from './line-diff.ts';
import { fail, say } from './output.ts';
import { locate, scopeFlags, scopeFromFlags } from './scope.ts';
import {
  backupPathOf,
  describeError,
  errorCode,
  formatSettings,
  readSettings,
  type SettingsDocument,
  writeAtomically,
} from './settings-file.ts';

/** `uninstall [--user|--project|--local] [--dry-run]`: removes this guard's handler and bundle, nothing else. */
export async function uninstallCommand(guard: GuardDefinition, argv: string[], io: CliIO): Promise<number> {
  const parsed = parseArgs(argv, { flags: [...scopeFlags, '--dry-run'], options: [] });
  if ('error' in parsed) return fail(io, `uninstall: ${parsed.error}; run \`${guard.name} --help\``);
  if (parsed.positionals.length > 0) {
    return fail(io, `uninstall: unexpected argument ${parsed.positionals[0]}; run \`${guard.name} --help\``);
  }
  const scope = scopeFromFlags(parsed.flags);
  if (typeof scope !== 'string') return fail(io, `uninstall: ${scope.error}`);
  const where = locate(guard, scope, io);

  const settings = await readSettings(where.settingsPath);
  if (!settings.ok) return fail(io, `uninstall: ${settings.message}`);
  const plan = settings.exists
    ? planUninstall(settings.document, guard.name)
    : { document: {}, removed: 0, alternatives: [] };
  // undefined: leave the file alone; null: delete it (it held only this guard's handler).
  let nextText: string | null | undefined;
  if (settings.exists && plan.removed > 0) {
    const backup = await readFile(backupPathOf(where.settingsPath), 'utf8').catch(() => null);
    if (backup !== null && [plan.document, ...plan.alternatives].some((doc) => holdsDocument(backup, doc)))
      nextText = backup;
    else if (Object.keys(plan.document).length === 0) nextText = null;
    else nextText = formatSettings(plan.document, settings.style);
  }
  const bundlePresent = await readFile(where.bundlePath).then(
    () => true,
    () => false,
  );
  const bundleShared = await isReferencedElsewhere(guard.name, where.siblingSettingsPaths);
  const removeBundle = bundlePresent && !bundleShared;

  if (nextText === undefined && !removeBundle) {
    say(io, `${guard.name} is not installed (${scope} scope); nothing changed`);
    return 0;
  }
  const settingsLine =
    nextText === undefined
      ? `  settings ${where.settingsPath} (no handler)`
      : nextText === null
        ? `  settings ${where.settingsPath} (removed: it held only this handler)`
        : `  settings ${where.settingsPath} (handler removed; backup ${backupPathOf(where.settingsPath)})`;
  const bundleLine = removeBundle
    ? `  bundle   ${where.bundlePath} (removed)`
    : `  bundle   ${where.bundlePath} (${bundleShared ? 'kept: another settings file in this folder uses it' : 'absent'})`;

  if (parsed.flags.has('--dry-run')) {
    say(
      io,
      `dry run: uninstall ${guard.name} (${scope} scope); nothing was written`,
      settingsLine,
      bundleLine,
    );
    if (settings.exists && nextText !== undefined) say(io, diffLines(settings.text, nextText ?? ''));
    return 0;
  }
  try {
    if (settings.exists && nextText === null) await unlink(where.settingsPath);
    else if (settings.exists && typeof nextText === 'string')
      await writeAtomically(where.settingsPath, nextText, settings.text);
  } catch (error) {
    return fail(
      io,
      `uninstall: cannot write ${where.settingsPath}: ${describeError(error)}; nothing was changed`,
    );
  }
  if (removeBundle) {
    try {
      await unlink(where.bundlePath);
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') {
        return fail(
          io,
          `uninstall: handler removed, but cannot remove ${where.bundlePath}: ${describeError(error)}`,
        );
      }
    }
    // Folders install created; rmdir refuses any that still hold something.
    await rmdir(dirname(where.bundlePath)).catch(() => undefined);
    if (nextText === null) await rmdir(dirname(where.settingsPath)).catch(() => undefined);
  }
  say(io, `uninstalled ${guard.name} (${scope} scope)`, settingsLine, bundleLine);
  return 0;
}

// The backup restores the file byte for byte when it holds exactly what removal leaves.
function holdsDocument(text: string, document: SettingsDocument): boolean {
  try {
    return (
      JSON.stringify(JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text)) ===
      JSON.stringify(document)
    );
  } catch {
    return false;
  }
}

async function isReferencedElsewhere(guardName: string, settingsPaths: string[]): Promise<boolean> {
  for (const path of settingsPaths) {
    const settings = await readSettings(path);
    if (!settings.ok) return true; // cannot tell: keep the bundle
    if (settings.exists && findOwnHandlers(settings.document, guardName).length > 0) return true;
  }
  return false;
}
