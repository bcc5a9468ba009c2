import { readFile, rmdir, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { CliIO, GuardDefinition } from '../guard.ts';
import { parseArgs } from './args.ts';
import { chooseHost, hostScopeLabel } from './host-choice.ts';
import type { HostWiring } from './host-wiring.ts';
import { withdrawJudge } from './judge-route.ts';
import { diffLines } from './line-diff.ts';
import { fail, say } from './output.ts';
import { type ScopeLocations, scopeFlags, scopeFromFlags } from './scope.ts';
import { describeLooked, surveyScopes } from './scope-survey.ts';
import {
  backupPathOf,
  describeError,
  errorCode,
  formatSettings,
  readOnlyProblem,
  readHostSettings,
  resolveWriteTarget,
  type SettingsDocument,
  type SettingsFile,
  writeAtomically,
} from './settings-file.ts';
import { withSettingsLock } from './settings-lock.ts';

/**
 * `uninstall [--host NAME] [--user|--project|--local] [--dry-run]`: removes this guard's handler and
 * bundle, nothing else. Without a scope it looks in every scope of the host and removes what it
 * finds there, or says where it looked.
 */
export async function uninstallCommand(guard: GuardDefinition, argv: string[], io: CliIO): Promise<number> {
  const parsedArgs = parseArgs(argv, { flags: [...scopeFlags, '--dry-run'], options: ['--host'] });
  if (!parsedArgs.ok) return fail(io, `uninstall: ${parsedArgs.message}; run \`${guard.name} --help\``);
  const parsed = parsedArgs.value;
  if (parsed.positionals.length > 0) {
    return fail(io, `uninstall: unexpected argument ${parsed.positionals[0]}; run \`${guard.name} --help\``);
  }
  const chosenScope = scopeFromFlags(parsed.flags);
  if (!chosenScope.ok) return fail(io, `uninstall: ${chosenScope.message}`);
  const scopeGiven = scopeFlags.some((flag) => parsed.flags.has(flag));
  const chosenHost = chooseHost(
    parsed.options.get('--host'),
    scopeGiven ? chosenScope.value : undefined,
    guard,
    false,
  );
  if (!chosenHost.ok) return fail(io, `uninstall: ${chosenHost.message}`);
  const wiring = chosenHost.value;
  const dryRun = parsed.flags.has('--dry-run');
  if (scopeGiven) {
    const where = await wiring.locate(guard, chosenScope.value, io);
    return uninstallFrom({ guard, wiring, where, dryRun, io });
  }
  const survey = await surveyScopes(guard, wiring, io, true);
  if (survey.installed.length === 0) {
    const host = wiring.host === 'claude' ? '' : ` (${wiring.host})`;
    say(
      io,
      `${guard.name} is not installed in any scope${host}: looked in ${describeLooked(survey)}; nothing changed`,
    );
    return 0;
  }
  let code = 0;
  for (const where of survey.installed)
    code = Math.max(code, await uninstallFrom({ guard, wiring, where, dryRun, io }));
  return code;
}

/** One guard's uninstall from one host's scope. */
interface Uninstalling {
  guard: GuardDefinition;
  wiring: HostWiring;
  where: ScopeLocations;
  dryRun: boolean;
  io: CliIO;
}

async function uninstallFrom(call: Uninstalling): Promise<number> {
  const code = await uninstallHandler(call);
  if (code !== 0 || call.dryRun || call.wiring.host !== 'claude') return code;
  // The MCP path's own files: the judge module and its place in the shared server's list.
  const lines = await withdrawJudge(call.guard, call.where, call.io);
  if (lines.length > 0) say(call.io, ...lines);
  return 0;
}

async function uninstallHandler({ guard, wiring, where, dryRun, io }: Uninstalling): Promise<number> {
  const label = hostScopeLabel(wiring, where.scope);
  const target = await resolveWriteTarget(where.settingsPath);
  const first = await planFor(guard, wiring, where, target);
  if (!first.ok) return fail(io, `uninstall: ${first.message}`);
  if (dryRun || !first.value.changes) return report(guard, label, where, first.value, dryRun, io);
  const locked = await withSettingsLock(target, async () => {
    // Planned again under the lock: another install may have written the file since the first look.
    const planned = await planFor(guard, wiring, where, target);
    if (!planned.ok) return planned;
    return {
      ok: true as const,
      value: { plan: planned.value, problem: await apply(planned.value, where, target) },
    };
  });
  if (!locked.ok) return fail(io, `uninstall: ${locked.message}; nothing was changed`);
  if (!locked.value.ok) return fail(io, `uninstall: ${locked.value.message}`);
  const { plan, problem } = locked.value.value;
  if (problem !== null) return fail(io, `uninstall: ${problem}`);
  // Once the lock beside it is gone: the folder install created (.claude, .gemini, .github/hooks),
  // when nothing else is in it; never a host's home ($CODEX_HOME), which the user may have named.
  if (plan.removeBundle && plan.action.action === 'delete') {
    if (!where.keepSettingsFolder) await rmdir(dirname(where.settingsPath)).catch(() => undefined);
    for (const folder of where.outerFolders ?? []) await rmdir(folder).catch(() => undefined);
  }
  return report(guard, label, where, plan, false, io);
}

/** What uninstall found and will do. */
interface UninstallPlan {
  settings: SettingsFile;
  action: SettingsAction;
  removeBundle: boolean;
  bundleShared: boolean;
  changes: boolean;
  target: string;
}

async function planFor(
  guard: GuardDefinition,
  wiring: HostWiring,
  where: ScopeLocations,
  target: string,
): Promise<{ ok: true; value: UninstallPlan } | { ok: false; message: string }> {
  const read = await readHostSettings(where.settingsPath, wiring.shapeProblem);
  if (!read.ok) return read;
  const settings = read.value;
  const action = await settingsActionFor(settings, guard.name, target, wiring);
  const bundlePresent = await readFile(where.bundlePath).then(
    () => true,
    () => false,
  );
  const bundleShared = await isReferencedElsewhere(guard.name, where.siblingSettingsPaths, wiring);
  const removeBundle = bundlePresent && !bundleShared;
  return {
    ok: true,
    value: {
      settings,
      action,
      removeBundle,
      bundleShared,
      changes: action.action !== 'keep' || removeBundle,
      target,
    },
  };
}

function report(
  guard: GuardDefinition,
  label: string, // `user scope`, `codex, user scope`
  where: ScopeLocations,
  plan: UninstallPlan,
  dryRun: boolean,
  io: CliIO,
): number {
  if (!plan.changes) {
    say(io, `${guard.name} is not installed (${label}); nothing changed`);
    return 0;
  }
  const settingsLine = {
    keep: `  settings ${where.settingsPath} (no handler)`,
    delete: `  settings ${where.settingsPath} (removed: it held only this handler)`,
    write: `  settings ${where.settingsPath} (handler removed)`,
  }[plan.action.action];
  const bundleLine = plan.removeBundle
    ? `  bundle   ${where.bundlePath} (removed)`
    : `  bundle   ${where.bundlePath} (${plan.bundleShared ? 'kept: another settings file in this folder uses it' : 'absent'})`;
  if (dryRun) {
    say(io, `dry run: uninstall ${guard.name} (${label}); nothing was written`, settingsLine, bundleLine);
    if (plan.settings.exists && plan.action.action !== 'keep')
      say(io, diffLines(plan.settings.text, plan.action.action === 'write' ? plan.action.text : ''));
    return 0;
  }
  say(io, `uninstalled ${guard.name} (${label})`, settingsLine, bundleLine);
  return 0;
}

// Removes the handler, then the bundle; null when done, else the one-line reason.
async function apply(plan: UninstallPlan, where: ScopeLocations, target: string): Promise<string | null> {
  const { settings, action } = plan;
  if (settings.exists && action.action !== 'keep') {
    const readOnly = await readOnlyProblem(target);
    if (readOnly !== null) return `${readOnly}: make it writable to remove the handler; nothing was changed`;
  }
  try {
    if (settings.exists && action.action === 'delete') await unlink(target);
    if (settings.exists && action.action === 'write')
      await writeAtomically(target, action.text, settings.text);
  } catch (error) {
    return `cannot write ${where.settingsPath}: ${describeError(error)}; nothing was changed`;
  }
  // The kit's backups (install's, and the one this write made) go with the handler: nothing of
  // the guard's is left in the project, and the settings file is what it was before the install.
  if (settings.exists && action.action !== 'keep') await unlink(backupPathOf(target)).catch(() => undefined);
  if (plan.removeBundle) {
    try {
      await unlink(where.bundlePath);
    } catch (error) {
      if (errorCode(error) !== 'ENOENT')
        return `handler removed, but cannot remove ${where.bundlePath}: ${describeError(error)}`;
    }
    // A folder install created; rmdir refuses one that still holds something.
    await rmdir(dirname(where.bundlePath)).catch(() => undefined);
  }
  return null;
}

/** What uninstall does to the settings file: leave it, delete it (it held only this handler), or write it. */
type SettingsAction = { action: 'keep' } | { action: 'delete' } | { action: 'write'; text: string };

async function settingsActionFor(
  settings: SettingsFile,
  guardName: string,
  target: string,
  wiring: HostWiring,
): Promise<SettingsAction> {
  if (!settings.exists) return { action: 'keep' };
  const plan = wiring.planUninstall(settings.document, guardName);
  if (plan.removed === 0) return { action: 'keep' };
  const backup = await readFile(backupPathOf(target), 'utf8').catch(() => null);
  if (backup !== null && [plan.document, ...plan.alternatives].some((doc) => holdsDocument(backup, doc)))
    return { action: 'write', text: backup };
  if (Object.keys(plan.document).length === 0) return { action: 'delete' };
  return { action: 'write', text: formatSettings(plan.document, settings.style) };
}

// The backup restores the file byte for byte when it holds exactly what removal leaves (an empty
// file reads as {}, as readSettings has it).
function holdsDocument(text: string, document: SettingsDocument): boolean {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return JSON.stringify(body.trim() === '' ? {} : JSON.parse(body)) === JSON.stringify(document);
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
