import { readFile, rmdir, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { CliIO, GuardDefinition } from '../guard.ts';
import { parseArgs } from './args.ts';
import { chooseHost, hostScopeLabel } from './host-choice.ts';
import type { HostWiring } from './host-wiring.ts';
import { diffLines } from './line-diff.ts';
import { fail, say } from './output.ts';
import { scopeFlags, scopeFromFlags } from './scope.ts';
import {
  backupPathOf,
  describeError,
  errorCode,
  formatSettings,
  readHostSettings,
  type SettingsDocument,
  type SettingsFile,
  writeAtomically,
} from './settings-file.ts';

/** `uninstall [--host NAME] [--user|--project|--local] [--dry-run]`: removes this guard's handler and bundle, nothing else. */
export async function uninstallCommand(guard: GuardDefinition, argv: string[], io: CliIO): Promise<number> {
  const parsedArgs = parseArgs(argv, { flags: [...scopeFlags, '--dry-run'], options: ['--host'] });
  if (!parsedArgs.ok) return fail(io, `uninstall: ${parsedArgs.message}; run \`${guard.name} --help\``);
  const parsed = parsedArgs.value;
  if (parsed.positionals.length > 0) {
    return fail(io, `uninstall: unexpected argument ${parsed.positionals[0]}; run \`${guard.name} --help\``);
  }
  const chosenScope = scopeFromFlags(parsed.flags);
  if (!chosenScope.ok) return fail(io, `uninstall: ${chosenScope.message}`);
  const scope = chosenScope.value;
  const chosenHost = chooseHost(parsed.options.get('--host'), scope, guard, false);
  if (!chosenHost.ok) return fail(io, `uninstall: ${chosenHost.message}`);
  const wiring = chosenHost.value;
  const label = hostScopeLabel(wiring, scope);
  const where = wiring.locate(guard, scope, io);

  const read = await readHostSettings(where.settingsPath, wiring.shapeProblem);
  if (!read.ok) return fail(io, `uninstall: ${read.message}`);
  const settings = read.value;
  const action = await settingsActionFor(settings, guard.name, where.settingsPath, wiring);
  const bundlePresent = await readFile(where.bundlePath).then(
    () => true,
    () => false,
  );
  const bundleShared = await isReferencedElsewhere(guard.name, where.siblingSettingsPaths, wiring);
  const removeBundle = bundlePresent && !bundleShared;

  if (action.action === 'keep' && !removeBundle) {
    say(io, `${guard.name} is not installed (${label}); nothing changed`);
    return 0;
  }
  const settingsLine = {
    keep: `  settings ${where.settingsPath} (no handler)`,
    delete: `  settings ${where.settingsPath} (removed: it held only this handler)`,
    write: `  settings ${where.settingsPath} (handler removed; backup ${backupPathOf(where.settingsPath)})`,
  }[action.action];
  const bundleLine = removeBundle
    ? `  bundle   ${where.bundlePath} (removed)`
    : `  bundle   ${where.bundlePath} (${bundleShared ? 'kept: another settings file in this folder uses it' : 'absent'})`;

  if (parsed.flags.has('--dry-run')) {
    say(io, `dry run: uninstall ${guard.name} (${label}); nothing was written`, settingsLine, bundleLine);
    if (settings.exists && action.action !== 'keep')
      say(io, diffLines(settings.text, action.action === 'write' ? action.text : ''));
    return 0;
  }
  try {
    if (settings.exists && action.action === 'delete') await unlink(where.settingsPath);
    if (settings.exists && action.action === 'write')
      await writeAtomically(where.settingsPath, action.text, settings.text);
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
    if (action.action === 'delete' && !where.keepSettingsFolder)
      await rmdir(dirname(where.settingsPath)).catch(() => undefined);
    if (action.action === 'delete')
      for (const folder of where.outerFolders ?? []) await rmdir(folder).catch(() => undefined);
  }
  say(io, `uninstalled ${guard.name} (${label})`, settingsLine, bundleLine);
  return 0;
}

/** What uninstall does to the settings file: leave it, delete it (it held only this handler), or write it. */
type SettingsAction = { action: 'keep' } | { action: 'delete' } | { action: 'write'; text: string };

async function settingsActionFor(
  settings: SettingsFile,
  guardName: string,
  settingsPath: string,
  wiring: HostWiring,
): Promise<SettingsAction> {
  if (!settings.exists) return { action: 'keep' };
  const plan = wiring.planUninstall(settings.document, guardName);
  if (plan.removed === 0) return { action: 'keep' };
  const backup = await readFile(backupPathOf(settingsPath), 'utf8').catch(() => null);
  if (backup !== null && [plan.document, ...plan.alternatives].some((doc) => holdsDocument(backup, doc)))
    return { action: 'write', text: backup };
  if (Object.keys(plan.document).length === 0) return { action: 'delete' };
  return { action: 'write', text: formatSettings(plan.document, settings.style) };
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

async function isReferencedElsewhere(
  guardName: string,
  settingsPaths: string[],
  wiring: HostWiring,
): Promise<boolean> {
  for (const path of settingsPaths) {
    const read = await readHostSettings(path, wiring.shapeProblem);
    if (!read.ok) return true; // cannot tell: keep the bundle
    if (read.value.exists && wiring.findOwn(read.value.document, guardName).length > 0) return true;
  }
  return false;
}
