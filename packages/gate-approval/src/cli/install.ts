import type { CliIO, GuardDefinition } from '../guard.ts';
import { parseArgs } from './args.ts';
import { placeBundle, readBundleSource, readExisting, undoPlaceBundle } from './bundle-file.ts';
import { chooseHost, hostScopeLabel } from './host-choice.ts';
import { diffLines } from './line-diff.ts';
import { fail, say, strictCostNote } from './output.ts';
import { scopeFlags, scopeFromFlags } from './scope.ts';
import {
  backupPathOf,
  describeError,
  formatSettings,
  readHostSettings,
  writeAtomically,
} from './settings-file.ts';

/** `install [--host NAME] [--user|--project|--local] [--strict] [--dry-run]`: copies the bundle and merges the handler. */
export async function installCommand(guard: GuardDefinition, argv: string[], io: CliIO): Promise<number> {
  const parsedArgs = parseArgs(argv, {
    flags: [...scopeFlags, '--strict', '--dry-run'],
    options: ['--host'],
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
  const wiring = chosenHost.value;
  const label = hostScopeLabel(wiring, scope);
  const strict = parsed.flags.has('--strict');
  if (strict && guard.strictMode !== true) {
    // onFailure block would make a crashed or killed hook block the call: the opposite of failing open.
    return fail(
      io,
      `install: ${guard.name} has no strict mode: it fails open on every doubt, so --strict does not apply`,
    );
  }
  if (strict && wiring.strictUnsupported !== null)
    return fail(io, `install: --strict cannot be kept on ${wiring.title}: ${wiring.strictUnsupported}`);
  const dryRun = parsed.flags.has('--dry-run');
  const where = wiring.locate(guard, scope, io);

  const source = await readBundleSource(guard.bundle);
  if (!source.ok) return fail(io, `install: ${source.message}`);
  const bytes = source.value;
  const read = await readHostSettings(where.settingsPath, wiring.shapeProblem);
  if (!read.ok) return fail(io, `install: ${read.message}`);
  const settings = read.value;

  const previousText = settings.exists ? settings.text : null;
  const plan = wiring.planInstall(settings.exists ? settings.document : {}, guard, where.bundlePath, {
    strict,
  });
  const nextText =
    plan.change === 'unchanged'
      ? previousText
      : formatSettings(plan.document, settings.exists ? settings.style : undefined);
  const existingBundle = await readExisting(where.bundlePath);
  const bundleChange =
    existingBundle === null ? 'created' : existingBundle.equals(bytes) ? 'unchanged' : 'updated';
  const settingsLine = `  settings ${where.settingsPath} (handler ${plan.change}${plan.change !== 'unchanged' && previousText !== null ? `; backup ${backupPathOf(where.settingsPath)}` : ''})`;
  const bundleLine = `  bundle   ${where.bundlePath} (${bundleChange})`;

  if (dryRun) {
    say(io, `dry run: install ${guard.name} (${label}); nothing was written`, bundleLine, settingsLine);
    if (plan.change !== 'unchanged') say(io, diffLines(previousText ?? '', nextText ?? ''));
    if (strict) say(io, strictCostNote);
    return 0;
  }
  if (plan.change === 'unchanged' && bundleChange === 'unchanged') {
    say(io, `${guard.name} is already installed (${label}); nothing changed`, bundleLine, settingsLine);
    if (strict) say(io, strictCostNote);
    sayAfterInstall(io, wiring.afterInstall(scope));
    return 0;
  }

  let placement: Awaited<ReturnType<typeof placeBundle>>;
  try {
    placement = await placeBundle(bytes, where.bundlePath, existingBundle);
  } catch (error) {
    return fail(
      io,
      `install: cannot write ${where.bundlePath}: ${describeError(error)}; nothing was changed`,
    );
  }
  if (plan.change !== 'unchanged' && nextText !== null) {
    try {
      await writeAtomically(where.settingsPath, nextText, previousText);
    } catch (error) {
      await undoPlaceBundle(where.bundlePath, placement);
      return fail(
        io,
        `install: cannot write ${where.settingsPath}: ${describeError(error)}; nothing was changed`,
      );
    }
  }
  say(io, `installed ${guard.name} (${label})`, bundleLine, settingsLine);
  if (strict) say(io, strictCostNote);
  sayAfterInstall(io, wiring.afterInstall(scope));
  return 0;
}

function sayAfterInstall(io: CliIO, lines: string[]): void {
  if (lines.length > 0) say(io, ...lines);
}
