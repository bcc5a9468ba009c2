import type { Check } from './check.ts';
import type { DoctorContext, DoctorPart, EntryReading, HookRun, Surroundings } from './doctor-part.ts';
import { controlLines } from './hook-run-check.ts';
import { readJudgeEntry } from './judge-doctor.ts';
import type { InstalledEntry } from './host-wiring.ts';
import {
  describePluginTwins,
  describeSameNamePlugins,
  type EnabledPlugin,
  findEnabledPlugins,
  pluginHandler,
  pluginMode,
} from './plugins.ts';
import { checkPluginJudge } from './plugin-judge-doctor.ts';
import { expandProjectDir, findProjectDir } from './project-dir.ts';
import { verdictServerCheck } from './server-status.ts';
import { strictChecks, strictSummary } from './strict-state.ts';

/**
 * Claude Code's part of the doctor: a plugin may run the guard instead of (or beside) the settings
 * entry; the entry is the exec form (`"command": "node", "args": [bundle]`) naming this scope's
 * bundle; the verdict server is looked at after the control; a strict entry's failures block calls.
 */
export const claudeDoctor: DoctorPart = {
  installHint: (guard, _wiring, scope) => `run \`${guard.name} install --${scope}\``,
  surroundings,
  readEntry,
  afterControl: async (context, run) => [
    // After the control, which starts a server where there was none.
    await verdictServerCheck({
      command: run.command,
      args: run.args,
      env: { ...context.io.env, ...run.hostEnv },
      cwd: run.cwd,
      io: context.io,
    }),
  ],
  closing: async ({ guard, scope }, entry, checks) => [
    ...(entry.handler.onFailure === 'block' && checks.some((check) => !check.ok)
      ? [
          {
            ok: false,
            text: `this handler has "onFailure": "block" (--strict): until it is fixed, the host blocks every ${guard.matcher} call it matches`,
          },
        ]
      : []),
    ...strictChecks(entry.handler, guard.name, scope),
  ],
};

async function projectDirOf(context: DoctorContext): Promise<string> {
  return context.where.projectDir ?? (await findProjectDir(context.io.cwd));
}

async function surroundings(context: DoctorContext): Promise<Surroundings> {
  const { guard, where, scope, io } = context;
  const plugins = await findEnabledPlugins(guard, io, await projectDirOf(context));
  const modes = await Promise.all(
    plugins.map(async (plugin) => ({
      plugin,
      mode: pluginMode(plugin, await pluginHandler(plugin, guard.matcher, io)),
    })),
  );
  const sameName = describeSameNamePlugins(guard, modes, io.home);
  const [plugin] = plugins;
  return {
    lines: sameName === null ? [] : [{ ok: false, text: sameName }],
    twin:
      plugin === undefined
        ? null
        : {
            ok: false,
            text: `${guard.name} is wired twice, in ${where.settingsPath} and as a plugin: ${describePluginTwins(guard, plugins, scope)}`,
          },
    elsewhere: plugin === undefined ? null : () => checkPlugin(context, plugin),
  };
}

async function readEntry(context: DoctorContext, entry: InstalledEntry): Promise<EntryReading> {
  if (entry.handler.type === 'mcp_tool') return readJudgeEntry(context, entry);
  const { guard, where, hint } = context;
  const handler = entry.handler;
  const args = Array.isArray(handler.args) ? handler.args : null;
  const bundle = typeof args?.[0] === 'string' ? args[0] : null;
  const wellFormed =
    entry.matcher === guard.matcher &&
    handler.type === 'command' &&
    typeof handler.command === 'string' &&
    bundle !== null &&
    args?.every((arg) => typeof arg === 'string') === true &&
    typeof handler.timeout === 'number' &&
    handler.timeout > 0;
  if (!wellFormed || bundle === null)
    return {
      checks: [
        {
          ok: false,
          text: `the ${guard.name} entry in ${where.settingsPath} is not the exec form install writes (matcher ${guard.matcher}, "command": "node", "args": [bundle], "timeout"): ${hint} to upgrade it`,
        },
      ],
      run: null,
    };
  const checks: Check[] = [
    {
      ok: true,
      text: `settings entry in ${where.settingsPath}: matcher ${guard.matcher}, ${handler.command} ${bundle}, timeout ${handler.timeout} s${strictSummary(handler)}`,
    },
  ];
  if (bundle !== where.handlerArg)
    checks.push({
      ok: false,
      text: `the entry runs ${bundle}, not ${where.handlerArg}: ${hint} to upgrade it`,
    });
  // What the host runs: ${CLAUDE_PROJECT_DIR} is the project's top, where Claude Code starts.
  const projectDir = await projectDirOf(context);
  const runArgs = (args as string[]).map((arg) => expandProjectDir(arg, projectDir));
  const command = handler.command as string;
  const run: HookRun = {
    program: command,
    command,
    args: runArgs,
    bundleFile: runArgs[0] as string,
    timeoutMs: (handler.timeout as number) * 1000,
    hostEnv: { CLAUDE_PROJECT_DIR: projectDir },
    cwd: projectDir,
    unguarded: '',
  };
  return { checks, run };
}

// No settings entry, but a plugin runs the guard: say so, and run the control through its handler.
async function checkPlugin(context: DoctorContext, plugin: EnabledPlugin): Promise<Check[]> {
  const { guard, where } = context;
  const checks: Check[] = [
    {
      ok: true,
      text: `no ${guard.name} handler in ${where.settingsPath}: the plugin ${plugin.id} (enabled in ${plugin.enabledIn}) runs it`,
    },
  ];
  const handler = await pluginHandler(plugin, guard.matcher, context.io);
  if (handler === null) {
    checks.push({
      ok: true,
      text: `the plugin's hooks/hooks.json${plugin.installPath ? ` in ${plugin.installPath}` : ''} has no ${guard.matcher} handler to run the positive control through: \`claude plugin list\` shows its state`,
    });
    return checks;
  }
  const projectDir = await projectDirOf(context);
  if (handler.type === 'mcp_tool') {
    checks.push(...(await checkPluginJudge(context, plugin, handler.handler, handler.from, projectDir)));
    return checks;
  }
  const run: HookRun = {
    program: handler.command,
    command: handler.command,
    args: handler.args,
    bundleFile: handler.args[0] ?? '',
    timeoutMs: handler.timeout * 1000,
    hostEnv: { CLAUDE_PROJECT_DIR: projectDir, CLAUDE_PLUGIN_ROOT: plugin.installPath ?? '' },
    cwd: projectDir,
    unguarded: '',
  };
  checks.push(...(await controlLines(context, claudeDoctor, run)));
  return checks;
}
