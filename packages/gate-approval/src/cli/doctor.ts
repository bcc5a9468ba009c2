import { stat } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import { onPath } from '@kit/fail-open';
import type { CliIO, GuardDefinition } from '../guard.ts';
import { hostAdapters } from '../hosts/host-adapter.ts';
import { readSwitch } from '../switches.ts';
import { parseArgs } from './args.ts';
import { checkHostInstallation } from './host-doctor.ts';
import { chooseHost } from './host-choice.ts';
import { findOwnHandlers } from './handler.ts';
import { fail, say } from './output.ts';
import { locate, type Scope, scopeFlags, scopeFromFlags } from './scope.ts';
import { runPositiveControl } from './positive-control.ts';
import { readSettings } from './settings-file.ts';

/** One line of the doctor's report: ok, a problem, or a warning (ok, but worth knowing). */
export interface Check {
  ok: boolean;
  warn?: boolean; // ok, but the user should know: printed `warn`, never a failure
  text: string;
}

/** `doctor [--host NAME] [--user|--project|--local]`: checks the installation end to end; exit 1 with the list of problems. */
export async function doctorCommand(guard: GuardDefinition, argv: string[], io: CliIO): Promise<number> {
  const parsedArgs = parseArgs(argv, { flags: scopeFlags, options: ['--host'] });
  if (!parsedArgs.ok) return fail(io, `doctor: ${parsedArgs.message}; run \`${guard.name} --help\``);
  const parsed = parsedArgs.value;
  if (parsed.positionals.length > 0) return fail(io, `doctor: unexpected argument ${parsed.positionals[0]}`);
  const chosenScope = scopeFromFlags(parsed.flags);
  if (!chosenScope.ok) return fail(io, `doctor: ${chosenScope.message}`);
  const scope = chosenScope.value;
  const chosenHost = chooseHost(parsed.options.get('--host'), scope, guard);
  if (!chosenHost.ok) return fail(io, `doctor: ${chosenHost.message}`);
  const wiring = chosenHost.value;

  const installation =
    wiring.host === 'claude'
      ? await checkInstallation(guard, scope, io)
      : await checkHostInstallation(guard, wiring, scope, io);
  const checks = [...installation, ...switchLines(guard, io)];
  checks.push(...(await guardChecks(guard, io)));
  for (const check of checks) say(io, `${check.ok ? (check.warn ? 'warn' : 'ok  ') : 'FAIL'} ${check.text}`);
  const problems = checks.filter((check) => !check.ok).length;
  if (problems === 0) {
    const warnings = checks.filter((check) => check.warn).length;
    const note = warnings === 0 ? '' : ` (${warnings} warning${warnings === 1 ? '' : 's'} above)`;
    say(io, `doctor: ${guard.name} ${guard.version} is installed and denies its positive control${note}`);
    return 0;
  }
  io.stderr(`doctor: ${problems} problem${problems === 1 ? '' : 's'} found (the FAIL lines above)\n`);
  return 1;
}

async function checkInstallation(guard: GuardDefinition, scope: Scope, io: CliIO): Promise<Check[]> {
  const where = locate(guard, scope, io);
  const read = await readSettings(where.settingsPath);
  if (!read.ok) return [{ ok: false, text: read.message }];
  const settings = read.value;
  const installHint = `run \`${guard.name} install --${scope}\``;
  if (!settings.exists) return [{ ok: false, text: `${where.settingsPath} does not exist: ${installHint}` }];
  const places = findOwnHandlers(settings.document, guard.name);
  if (places.length === 0)
    return [{ ok: false, text: `no ${guard.name} handler in ${where.settingsPath}: ${installHint}` }];

  const checks: Check[] = [];
  if (places.length > 1)
    checks.push({
      ok: false,
      text: `${places.length} ${guard.name} handlers in ${where.settingsPath}: ${installHint} to keep one`,
    });
  const place = places[0] as (typeof places)[number];
  const handler = place.group.hooks[place.handlerIndex] as Record<string, unknown>;
  const args = Array.isArray(handler.args) ? handler.args : null;
  const bundle = typeof args?.[0] === 'string' ? args[0] : null;
  const wellFormed =
    place.group.matcher === guard.matcher &&
    handler.type === 'command' &&
    typeof handler.command === 'string' &&
    bundle !== null &&
    args?.every((arg) => typeof arg === 'string') === true &&
    typeof handler.timeout === 'number' &&
    handler.timeout > 0;
  checks.push(
    wellFormed
      ? {
          ok: true,
          text: `settings entry in ${where.settingsPath}: matcher ${guard.matcher}, ${handler.command} ${bundle}, timeout ${handler.timeout} s${handler.onFailure === 'block' ? ', onFailure block (strict)' : ''}`,
        }
      : {
          ok: false,
          text: `the ${guard.name} entry in ${where.settingsPath} is not the exec form install writes (matcher ${guard.matcher}, "command": "node", "args": [bundle], "timeout"): ${installHint} to upgrade it`,
        },
  );
  if (!wellFormed || bundle === null) return checks;

  if (bundle !== where.bundlePath)
    checks.push({
      ok: false,
      text: `the entry runs ${bundle}, not ${where.bundlePath}: ${installHint} to upgrade it`,
    });
  const bundleIsFile = await stat(bundle).then(
    (s) => s.isFile(),
    () => false,
  );
  checks.push(
    bundleIsFile
      ? { ok: true, text: `bundle ${bundle}` }
      : { ok: false, text: `the bundle ${bundle} is missing: ${installHint}` },
  );
  const command = handler.command as string;
  const resolved = isAbsolute(command) ? command : onPath(command, io.env);
  checks.push(
    resolved
      ? { ok: true, text: `${command} resolves to ${resolved}` }
      : { ok: false, text: `\`${command}\` is not on PATH: the host cannot start the hook` },
  );
  if (bundleIsFile && resolved)
    checks.push(
      await runPositiveControl(guard, hostAdapters.claude, {
        command,
        args: args as string[],
        timeoutMs: (handler.timeout as number) * 1000,
        io,
      }),
    );
  if (handler.onFailure === 'block' && checks.some((check) => !check.ok))
    checks.push({
      ok: false,
      text: `this handler has "onFailure": "block" (--strict): until it is fixed, the host blocks every ${guard.matcher} call it matches`,
    });
  return checks;
}

function switchLines(guard: GuardDefinition, io: CliIO): Check[] {
  return guard.switches.map((s) => {
    const names = [s.name, ...(s.legacyNames ?? [])];
    const set = names.filter((name) => io.env[name] !== undefined).map((name) => `${name}=${io.env[name]}`);
    const shown = set.length > 0 ? ` (${set.join(', ')})` : ' (not set)';
    if (s.kind === 'value')
      return { ok: true, text: `variable ${s.name}: ${set.length > 0 ? `set${shown}` : 'not set'}` };
    return { ok: true, text: `switch ${s.name}: ${readSwitch(io.env, s.name, s.legacyNames)}${shown}` };
  });
}

async function guardChecks(guard: GuardDefinition, io: CliIO): Promise<Check[]> {
  if (!guard.doctorChecks) return [];
  try {
    return (await guard.doctorChecks(io)).map((line) =>
      typeof line === 'string'
        ? { ok: false, text: line }
        : { ok: true, ...(line.level === 'warn' ? { warn: true } : {}), text: line.text },
    );
  } catch (error) {
    return [
      {
        ok: false,
        text: `the guard's own checks failed: ${error instanceof Error ? error.message : String(error)}`,
      },
    ];
  }
}
