import { resolve } from 'node:path';
import type { CliIO, GuardDefinition } from '../guard.ts';
import { parseArgs } from './args.ts';
import { placeBundle, readBundleSource, readExisting, undoPlaceBundle } from './bundle-file.ts';
import type { InstallChange } from './handler.ts';
import { chooseHost, hostScopeLabel } from './host-choice.ts';
import type { HostWiring } from './host-wiring.ts';
import { enlistJudge, routeInstall, withdrawJudge } from './judge-route.ts';
import { diffLines } from './line-diff.ts';
import { fail, monitorNote, say, strictCostNote } from './output.ts';
import { describePluginTwins, findEnabledPlugins } from './plugins.ts';
import { type ScopeLocations, scopeFlags, scopeFromFlags } from './scope.ts';
import {
  backupPathOf,
  describeError,
  formatSettings,
  readOnlyProblem,
  readHostSettings,
  resolveWriteTarget,
  writeAtomically,
} from './settings-file.ts';
import { withSettingsLock } from './settings-lock.ts';

/** `install [--host NAME] [--user|--project|--local] [--strict] [--monitor] [--dry-run]`: copies the bundle and merges the handler. */
export async function installCommand(guard: GuardDefinition, argv: string[], io: CliIO): Promise<number> {
  const parsedArgs = parseArgs(argv, {
    flags: [...scopeFlags, '--strict', '--monitor', '--dry-run'],
    options: ['--host', '--transport'],
  });
  if (!parsedArgs.ok) return fail(io, `install: ${parsedArgs.message}; run \`${guard.name} --help\``);
  const parsed = parsedArgs.value;
  if (parsed.positionals.length > 0) {
    return fail(io, `install: unexpected argument ${parsed.positionals[0]}; run \`${guard.name} --help\``);
  }
  const chosenScope = scopeFromFlags(parsed.flags);
  if (!chosenScope.ok) return fail(io, `install: ${chosenScope.message}`);
  const scope = chosenScope.value;
  const chosenHost = chooseHost(parsed.options.get('--host'), scope, guard);
  if (!chosenHost.ok) return fail(io, `install: ${chosenHost.message}`);
  const label = hostScopeLabel(chosenHost.value, scope);
  const strict = parsed.flags.has('--strict');
  if (strict && guard.strictMode !== true) {
    // onFailure block would make a crashed or killed hook block the call: the opposite of failing open.
    return fail(
      io,
      `install: ${guard.name} has no strict mode: it fails open on every doubt, so --strict does not apply`,
    );
  }
  const host = chosenHost.value;
  if (strict && host.strictUnsupported !== null)
    return fail(io, `install: --strict cannot be kept on ${host.title}: ${host.strictUnsupported}`);
  const monitor = parsed.flags.has('--monitor');
  if (monitor && host.host !== 'claude') return fail(io, `install: --monitor is not yet on ${host.title}`);
  const asked = { option: parsed.options.get('--transport'), strict, monitor };
  const routed = await routeInstall(guard, host, scope, asked, io);
  if (!routed.ok) return fail(io, `install: ${routed.message}`);
  const { wiring, where, scopeWhere, bundle, server } = routed.value;
  const notes = notesFor(guard, routed.value.line, strict, monitor);
  const source = await readBundleSource(bundle);
  if (!source.ok) return fail(io, `install: ${source.message}`);
  const request: InstallRequest = { guard, wiring, where, strict, monitor, bytes: source.value };

  // A first look without the lock: a dry run and an install with nothing to do never take it.
  const first = await planFor(request);
  if (!first.ok) return fail(io, `install: ${first.message}`);
  if (parsed.flags.has('--dry-run')) {
    const plan = first.value;
    say(io, `dry run: install ${guard.name} (${label}); nothing was written`, ...lines(plan, io));
    if (plan.change !== 'unchanged') say(io, diffLines(plan.previousText ?? '', plan.nextText ?? ''));
    if (notes.length > 0) say(io, ...notes);
    return 0;
  }
  // The server first: a handler naming a server that is not declared would leave every call unjudged.
  const enlisted = server === undefined ? null : await enlistJudge(guard, scopeWhere, server, true, io);
  if (enlisted !== null) return fail(io, `install: ${enlisted}; the settings were not changed`);
  if (first.value.change === 'unchanged' && first.value.bundleChange === 'unchanged') {
    say(io, `${guard.name} is already installed (${label}); nothing changed`, ...lines(first.value, io));
    if (notes.length > 0) say(io, ...notes);
    sayAfterInstall(io, wiring.afterInstall(scope));
    return 0;
  }

  const locked = await withSettingsLock(first.value.target, async () => {
    // Planned again under the lock: another install may have written the file since the first look.
    const planned = await planFor(request);
    if (!planned.ok) return planned;
    return {
      ok: true as const,
      value: { plan: planned.value, written: await apply(planned.value, request) },
    };
  });
  if (!locked.ok) return fail(io, `install: ${locked.message}; nothing was changed`);
  const outcome = locked.value;
  if (!outcome.ok) return fail(io, `install: ${outcome.message}`);
  const { plan, written } = outcome.value;
  if (written !== null) return fail(io, `install: ${written}`);
  say(io, `installed ${guard.name} (${label})`, ...lines(plan, io));
  if (notes.length > 0) say(io, ...notes);
  sayAfterInstall(io, wiring.afterInstall(scope));
  // Plugins and the judge server are Claude Code's: only its settings can wire a guard twice that way.
  if (wiring.host === 'claude') await afterClaudeWrite(guard, scopeWhere, server === undefined, io);
  return 0;
}

/** What one install would do to the scope's files. */
interface InstallRequest {
  guard: GuardDefinition;
  wiring: HostWiring;
  where: ScopeLocations;
  strict: boolean;
  monitor: boolean;
  bytes: Buffer;
}

/** The install worked out against the files as they are now. */
interface InstallPlan {
  target: string; // the settings file's real path (through symlinks, dangling ones included)
  previousText: string | null;
  nextText: string | null;
  change: InstallChange;
  bundleChange: 'created' | 'updated' | 'unchanged';
  existingBundle: Buffer | null;
  where: ScopeLocations;
}

async function planFor(
  request: InstallRequest,
): Promise<{ ok: true; value: InstallPlan } | { ok: false; message: string }> {
  const { guard, wiring, where, strict, monitor, bytes } = request;
  const target = await resolveWriteTarget(where.settingsPath);
  const read = await readHostSettings(where.settingsPath, wiring.shapeProblem);
  if (!read.ok) return read;
  const settings = read.value;
  const previousText = settings.exists ? settings.text : null;
  const plan = wiring.planInstall(settings.exists ? settings.document : {}, guard, where.handlerArg, {
    strict,
    monitor,
  });
  const nextText =
    plan.change === 'unchanged'
      ? previousText
      : formatSettings(plan.document, settings.exists ? settings.style : undefined);
  const existingBundle = await readExisting(where.bundlePath);
  const bundleChange =
    existingBundle === null ? 'created' : existingBundle.equals(bytes) ? 'unchanged' : 'updated';
  return {
    ok: true,
    value: { target, previousText, nextText, change: plan.change, bundleChange, existingBundle, where },
  };
}

// Writes the bundle, then the settings; null when both landed, else the one-line reason (and the
// bundle is put back).
async function apply(plan: InstallPlan, request: InstallRequest): Promise<string | null> {
  const { where } = plan;
  if (plan.change !== 'unchanged' && plan.previousText !== null) {
    const readOnly = await readOnlyProblem(plan.target);
    if (readOnly !== null)
      return `${readOnly}: make it writable, or install into another scope; nothing was changed`;
  }
  let placement: Awaited<ReturnType<typeof placeBundle>>;
  try {
    placement = await placeBundle(request.bytes, where.bundlePath, plan.existingBundle);
  } catch (error) {
    return `cannot write ${where.bundlePath}: ${describeError(error)}; nothing was changed`;
  }
  if (plan.change !== 'unchanged' && plan.nextText !== null) {
    try {
      await writeAtomically(plan.target, plan.nextText, plan.previousText);
    } catch (error) {
      await undoPlaceBundle(where.bundlePath, placement);
      return `cannot write ${plan.target}: ${describeError(error)}; nothing was changed`;
    }
  }
  return null;
}

function lines(plan: InstallPlan, io: CliIO): string[] {
  const { where } = plan;
  const backup =
    plan.change !== 'unchanged' && plan.previousText !== null ? `; backup ${backupPathOf(plan.target)}` : '';
  const through = plan.target === resolve(where.settingsPath) ? '' : ` -> ${plan.target}`;
  const result: string[] = [];
  if (where.projectDir !== null && where.projectDir !== resolve(io.cwd))
    result.push(`  project  ${where.projectDir} (the top of the work tree; start Claude Code there)`);
  result.push(
    `  bundle   ${where.bundlePath} (${plan.bundleChange})`,
    `  settings ${where.settingsPath}${through} (handler ${plan.change}${backup})`,
  );
  return result;
}

// After a write to Claude Code's settings: a plugin that also runs the guard is warned of, and on the
// command path a judge server that still names the guard's module (an earlier MCP install) lets it go.
async function afterClaudeWrite(
  guard: GuardDefinition,
  where: ScopeLocations,
  commandPath: boolean,
  io: CliIO,
): Promise<void> {
  await warnOfPlugins(guard, where, io);
  const withdrawn = commandPath ? await withdrawJudge(guard, where, io) : [];
  if (withdrawn.length > 0) say(io, ...withdrawn);
}

async function warnOfPlugins(guard: GuardDefinition, where: ScopeLocations, io: CliIO): Promise<void> {
  const twins = await findEnabledPlugins(guard, io, where.projectDir);
  if (twins.length === 0) return;
  io.stderr(`warning: ${describePluginTwins(guard, twins, where.scope)}\n`);
}

function sayAfterInstall(io: CliIO, lines: string[]): void {
  if (lines.length > 0) say(io, ...lines);
}

// The lines after what install did: the transport it chose, what --strict costs, what --monitor records.
function notesFor(
  guard: GuardDefinition,
  transportLine: string,
  strict: boolean,
  monitor: boolean,
): string[] {
  return [
    ...(transportLine === '' ? [] : [transportLine]),
    ...(strict ? [strictCostNote] : []),
    ...(monitor ? [monitorNote(guard.name)] : []),
  ];
}
