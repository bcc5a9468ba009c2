import { stat } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import { onPath } from '@kit/fail-open';
import type { CliIO, GuardDefinition } from '../guard.ts';
import { hostAdapters } from '../hosts/host-adapter.ts';
import { readSwitch } from '../switches.ts';
import { parseArgs } from './args.ts';
import type { Check } from './check.ts';
import type { HostWiring } from './host-wiring.ts';
import { describeLooked, surveyScopes } from './scope-survey.ts';
import { findOwnHandlers } from './handler.ts';
import { chooseHost } from './host-choice.ts';
import { checkHostInstallation } from './host-doctor.ts';
import { idleHere } from './idle-here.ts';
import { fail, say } from './output.ts';
import {
  describePluginTwins,
  describeSameNamePlugins,
  type EnabledPlugin,
  findEnabledPlugins,
  pluginHandler,
} from './plugins.ts';
import { expandProjectDir, findProjectDir } from './project-dir.ts';
import { runPositiveControl } from './positive-control.ts';
import { verdictServerCheck } from './server-status.ts';
import { locate, type Scope, type ScopeLocations, scopeFlags, scopeFromFlags } from './scope.ts';
import { readSettings } from './settings-file.ts';
import { strictChecks, strictSummary } from './strict-state.ts';

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
  const checkScope = (scope: Scope): Promise<Check[]> =>
    wiring.host === 'claude'
      ? checkInstallation(guard, scope, io)
      : checkHostInstallation(guard, wiring, scope, io);
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

async function checkInstallation(guard: GuardDefinition, scope: Scope, io: CliIO): Promise<Check[]> {
  const where = await locate(guard, scope, io);
  const plugins = await findEnabledPlugins(guard, io, where.projectDir ?? (await findProjectDir(io.cwd)));
  const pluginChecks = samePluginChecks(guard, plugins);
  const read = await readSettings(where.settingsPath);
  if (!read.ok) return [{ ok: false, text: read.message }, ...pluginChecks];
  const settings = read.value;
  const installHint = `run \`${guard.name} install --${scope}\``;
  const places = settings.exists ? findOwnHandlers(settings.document, guard.name) : [];
  if (places.length === 0) {
    const [plugin] = plugins;
    if (plugin !== undefined) return [...(await checkPlugin(guard, plugin, where, io)), ...pluginChecks];
    const text = settings.exists
      ? `no ${guard.name} handler in ${where.settingsPath}: ${installHint}`
      : `${where.settingsPath} does not exist: ${installHint}`;
    return [{ ok: false, text }];
  }

  const checks: Check[] = [...pluginChecks];
  if (plugins.length > 0)
    checks.push({
      ok: false,
      text: `${guard.name} is wired twice, in ${where.settingsPath} and as a plugin: ${describePluginTwins(guard, plugins, scope)}`,
    });
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
          text: `settings entry in ${where.settingsPath}: matcher ${guard.matcher}, ${handler.command} ${bundle}, timeout ${handler.timeout} s${strictSummary(handler)}`,
        }
      : {
          ok: false,
          text: `the ${guard.name} entry in ${where.settingsPath} is not the exec form install writes (matcher ${guard.matcher}, "command": "node", "args": [bundle], "timeout"): ${installHint} to upgrade it`,
        },
  );
  if (!wellFormed || bundle === null) return checks;

  if (bundle !== where.handlerArg)
    checks.push({
      ok: false,
      text: `the entry runs ${bundle}, not ${where.handlerArg}: ${installHint} to upgrade it`,
    });
  // What the host runs: ${CLAUDE_PROJECT_DIR} is the project's top, where Claude Code starts.
  const projectDir = where.projectDir ?? (await findProjectDir(io.cwd));
  const runArgs = (args as string[]).map((arg) => expandProjectDir(arg, projectDir));
  const bundleFile = runArgs[0] as string;
  const bundleIsFile = await stat(bundleFile).then(
    (s) => s.isFile(),
    () => false,
  );
  checks.push(
    bundleIsFile
      ? { ok: true, text: `bundle ${bundleFile}` }
      : { ok: false, text: `the bundle ${bundleFile} is missing: ${installHint}` },
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
        args: runArgs,
        timeoutMs: (handler.timeout as number) * 1000,
        io,
        hostEnv: { CLAUDE_PROJECT_DIR: projectDir },
      }),
      // After the control, which starts a server where there was none.
      await verdictServerCheck({
        command,
        args: runArgs,
        env: { ...io.env, CLAUDE_PROJECT_DIR: projectDir },
        cwd: projectDir,
        io,
      }),
    );
  if (handler.onFailure === 'block' && checks.some((check) => !check.ok))
    checks.push({
      ok: false,
      text: `this handler has "onFailure": "block" (--strict): until it is fixed, the host blocks every ${guard.matcher} call it matches`,
    });
  return [...checks, ...strictChecks(handler, guard.name, scope)];
}

// No settings entry, but a plugin runs the guard: say so, and run the control through its handler.
async function checkPlugin(
  guard: GuardDefinition,
  plugin: EnabledPlugin,
  where: ScopeLocations,
  io: CliIO,
): Promise<Check[]> {
  const checks: Check[] = [
    {
      ok: true,
      text: `no ${guard.name} handler in ${where.settingsPath}: the plugin ${plugin.id} (enabled in ${plugin.enabledIn}) runs it`,
    },
  ];
  const handler = await pluginHandler(plugin, guard.matcher);
  if (handler === null) {
    checks.push({
      ok: true,
      text: `the plugin's hooks/hooks.json${plugin.installPath ? ` in ${plugin.installPath}` : ''} has no ${guard.matcher} handler to run the positive control through: \`claude plugin list\` shows its state`,
    });
    return checks;
  }
  const projectDir = where.projectDir ?? (await findProjectDir(io.cwd));
  checks.push(
    await runPositiveControl(guard, hostAdapters.claude, {
      command: handler.command,
      args: handler.args,
      timeoutMs: handler.timeout * 1000,
      io,
      hostEnv: { CLAUDE_PROJECT_DIR: projectDir, CLAUDE_PLUGIN_ROOT: plugin.installPath ?? '' },
    }),
    await verdictServerCheck({
      command: handler.command,
      args: handler.args,
      env: { ...io.env, CLAUDE_PROJECT_DIR: projectDir, CLAUDE_PLUGIN_ROOT: plugin.installPath ?? '' },
      cwd: projectDir,
      io,
    }),
  );
  return checks;
}

function samePluginChecks(guard: GuardDefinition, plugins: EnabledPlugin[]): Check[] {
  const sentence = describeSameNamePlugins(guard, plugins);
  return sentence === null ? [] : [{ ok: false, text: sentence }];
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
