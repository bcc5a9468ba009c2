import type { CliIO, GuardDefinition } from '../guard.ts';
import { readSwitch } from '../switches.ts';
import { parseArgs } from './args.ts';
import type { Check } from './check.ts';
import { chooseHost } from './host-choice.ts';
import type { HostWiring } from './host-wiring.ts';
import { idleHere } from './idle-here.ts';
import { checkInstallation } from './installation-check.ts';
import { fail, say } from './output.ts';
import { type Scope, scopeFlags, scopeFromFlags } from './scope.ts';
import { describeLooked, surveyScopes } from './scope-survey.ts';

/** `doctor [--host NAME] [--user|--project|--local]`: checks the installation end to end; exit 1 with the list of problems. */
export async function doctorCommand(guard: GuardDefinition, argv: string[], io: CliIO): Promise<number> {
  const parsedArgs = parseArgs(argv, { flags: scopeFlags, options: ['--host'] });
  if (!parsedArgs.ok) return fail(io, `doctor: ${parsedArgs.message}; run \`${guard.name} --help\``);
  const parsed = parsedArgs.value;
  if (parsed.positionals.length > 0) return fail(io, `doctor: unexpected argument ${parsed.positionals[0]}`);
  const chosenScope = scopeFromFlags(parsed.flags);
  if (!chosenScope.ok) return fail(io, `doctor: ${chosenScope.message}`);
  const scopeGiven = scopeFlags.some((flag) => parsed.flags.has(flag));
  const chosenHost = chooseHost(
    parsed.options.get('--host'),
    scopeGiven ? chosenScope.value : undefined,
    guard,
  );
  if (!chosenHost.ok) return fail(io, `doctor: ${chosenHost.message}`);
  const wiring = chosenHost.value;
  const checkScope = (scope: Scope): Promise<Check[]> => checkInstallation(guard, wiring, scope, io);
  const installation = scopeGiven
    ? await checkScope(chosenScope.value)
    : await checkEveryScope(guard, wiring, checkScope, io);
  const checks = [...installation, ...switchLines(guard, io), ...idleLines(guard, io.cwd, io)];
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

// No scope given: every scope of the host is looked at, and the installation checked where it is.
// Found nowhere, the default scope's lines say so (and find a plugin that runs the guard).
async function checkEveryScope(
  guard: GuardDefinition,
  wiring: HostWiring,
  checkScope: (scope: Scope) => Promise<Check[]>,
  io: CliIO,
): Promise<Check[]> {
  const survey = await surveyScopes(guard, wiring, io, false);
  const scopes = survey.installed.map((where) => where.scope);
  const looked: Check = {
    ok: true,
    text: `no scope given: looked in ${describeLooked(survey)}; ${scopes.length === 0 ? 'no handler in any' : `installed in ${scopes.join(' and ')} scope`}`,
  };
  const checks: Check[] = [looked];
  if (scopes.length > 1)
    checks.push({
      ok: true,
      warn: true,
      text: `${guard.name} is installed in ${scopes.join(' and ')} scope: the host runs it once for each; \`${guard.name} uninstall --${scopes[0]}\` keeps one`,
    });
  for (const scope of scopes.length === 0 ? [wiring.scopes[0] as Scope] : scopes)
    checks.push(...(await checkScope(scope)));
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

// A guard idle in this folder is a warning: installed and working, but judging nothing here.
function idleLines(guard: GuardDefinition, cwd: string, io: CliIO): Check[] {
  const words = idleHere(guard, cwd, io.env);
  return words === null ? [] : [{ ok: true, warn: true, text: `idle here: ${words}` }];
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
