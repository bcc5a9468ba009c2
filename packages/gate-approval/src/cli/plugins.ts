import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isJsonObject } from '@kit/fail-open';
import type { CliIO, GuardDefinition } from '../guard.ts';
import { enabledPlugins, enabledPluginsFiles } from '../enabled-plugins.ts';
import { isMonitored } from '../monitor.ts';
import { isStrictArg } from '../strict-arg.ts';
import type { Scope } from './scope.ts';

/** A Claude Code plugin that is enabled for this project and runs this guard. */
export interface EnabledPlugin {
  id: string; // 'git-write-gate-strict@kit': <plugin>@<marketplace>
  enabledIn: string; // the settings file whose enabledPlugins turned it on last
  installPath: string | null; // ~/.claude/plugins/cache/<marketplace>/<plugin>/<version>, when installed
}

/** One handler of a plugin's hooks, with ${CLAUDE_PLUGIN_ROOT} filled in; `from` says where it was read. */
export type PluginHandler =
  | { type: 'command'; command: string; args: string[]; timeout: number; from: string }
  | { type: 'mcp_tool'; handler: Record<string, unknown>; from: string };

const pluginRootPlaceholder = '${CLAUDE_PLUGIN_ROOT}';

/**
 * The plugins enabled for `projectDir` (or for the user alone, when null) that run this guard (see
 * enabled-plugins.ts: user, project, then local settings, a later `false` disabling), and whose installed
 * copy (~/.claude/plugins/installed_plugins.json) carries a `.claude-plugin/plugin.json` named like
 * the guard. A plugin whose copy cannot be read counts when its own name is the guard's. Never throws.
 */
export async function findEnabledPlugins(
  guard: Pick<GuardDefinition, 'name'>,
  io: Pick<CliIO, 'home'>,
  projectDir: string | null,
): Promise<EnabledPlugin[]> {
  const enabled = enabledPlugins(enabledPluginsFiles(join(io.home, '.claude'), projectDir));
  if (enabled.size === 0) return [];
  const installed = (await readJson(join(io.home, '.claude', 'plugins', 'installed_plugins.json')))?.plugins;
  const found: EnabledPlugin[] = [];
  for (const [id, enabledIn] of enabled) {
    const installPath = installPathOf(isJsonObject(installed) ? installed[id] : undefined, projectDir);
    const manifest =
      installPath === null ? null : await readJson(join(installPath, '.claude-plugin', 'plugin.json'));
    const name = typeof manifest?.name === 'string' ? manifest.name : id.split('@')[0];
    if (name === guard.name) found.push({ id, enabledIn, installPath });
  }
  return found;
}

// A user-scope record, or a project one for this project.
function installPathOf(records: unknown, projectDir: string | null): string | null {
  if (!Array.isArray(records)) return null;
  const usable = records.filter(
    (record): record is Record<string, unknown> =>
      isJsonObject(record) &&
      typeof record.installPath === 'string' &&
      (record.projectPath === undefined || record.projectPath === projectDir),
  );
  return (usable[0]?.installPath as string | undefined) ?? null;
}

/**
 * The PreToolUse handler on `matcher` that an installed plugin runs, or null: its marketplace
 * entry's PreToolUse hooks when the entry has them (Claude Code merges an entry's hooks into the
 * package's by event, so they take the package's place: the strict variant's handler lives there),
 * else its hooks/hooks.json, read in the folder the plugin runs from (`pluginRoot`).
 */
export async function pluginHandler(
  plugin: EnabledPlugin,
  matcher: string,
  io: Pick<CliIO, 'home'>,
): Promise<PluginHandler | null> {
  if (plugin.installPath === null) return null;
  const found = await marketplaceEntry(plugin.id, io);
  const root = rootOf(plugin.installPath, found);
  const own = found?.entry.hooks;
  const fromEntry = isJsonObject(own) && Array.isArray(own.PreToolUse);
  const hooksFile = join(root, 'hooks', 'hooks.json');
  const hooks = fromEntry ? own : (await readJson(hooksFile))?.hooks;
  const from = fromEntry ? `the ${plugin.id.split('@')[0]} entry of ${found?.file}` : hooksFile;
  const groups = isJsonObject(hooks) && Array.isArray(hooks.PreToolUse) ? hooks.PreToolUse : [];
  for (const group of groups) {
    if (!isJsonObject(group) || group.matcher !== matcher || !Array.isArray(group.hooks)) continue;
    const handler = group.hooks.find(isJsonObject);
    if (handler?.type === 'mcp_tool') return { type: 'mcp_tool', handler, from };
    if (!handler || typeof handler.command !== 'string') continue;
    const args = Array.isArray(handler.args) ? handler.args.filter((arg) => typeof arg === 'string') : [];
    return {
      type: 'command',
      command: handler.command,
      args: args.map((arg) => arg.split(pluginRootPlaceholder).join(root)),
      timeout: typeof handler.timeout === 'number' && handler.timeout > 0 ? handler.timeout : 5,
      from,
    };
  }
  return null;
}

/**
 * The folder Claude Code runs an installed plugin from (its `${CLAUDE_PLUGIN_ROOT}`), or null when
 * it is not installed: a relative source in a local-folder marketplace runs from that folder (the
 * cache holds a copy the CLI does not run), any other from its installed copy.
 */
export async function pluginRoot(plugin: EnabledPlugin, io: Pick<CliIO, 'home'>): Promise<string | null> {
  if (plugin.installPath === null) return null;
  return rootOf(plugin.installPath, await marketplaceEntry(plugin.id, io));
}

interface MarketplaceEntry {
  entry: Record<string, unknown>; // the plugin's entry in marketplace.json
  file: string; // that marketplace.json
  folder: string; // the marketplace's folder
  localFolder: boolean; // added from a folder on this machine (source "directory")
}

function rootOf(installPath: string, found: MarketplaceEntry | null): string {
  const source = found?.entry.source;
  return found?.localFolder === true && typeof source === 'string' && source.startsWith('./')
    ? join(found.folder, source)
    : installPath;
}

// The plugin's entry in its marketplace's marketplace.json, where ~/.claude/plugins/known_marketplaces.json
// says the marketplace is.
async function marketplaceEntry(id: string, io: Pick<CliIO, 'home'>): Promise<MarketplaceEntry | null> {
  const [name, marketplace] = id.split('@');
  const known = await readJson(join(io.home, '.claude', 'plugins', 'known_marketplaces.json'));
  const record = marketplace === undefined ? undefined : known?.[marketplace];
  if (!isJsonObject(record) || typeof record.installLocation !== 'string') return null;
  const file = join(record.installLocation, '.claude-plugin', 'marketplace.json');
  const plugins = (await readJson(file))?.plugins;
  const entry = Array.isArray(plugins)
    ? plugins.find((plugin) => isJsonObject(plugin) && plugin.name === name)
    : undefined;
  const localFolder = isJsonObject(record.source) && record.source.source === 'directory';
  return isJsonObject(entry) ? { entry, file, folder: record.installLocation, localFolder } : null;
}

/**
 * One sentence on plugins that run this guard besides its handler in a settings file of `scope`,
 * naming the one to remove: the plugin beside a project handler (the committed handler guards
 * everyone who clones the repository), else the handler (the plugin updates with its marketplace).
 */
export function describePluginTwins(
  guard: Pick<GuardDefinition, 'name'>,
  twins: EnabledPlugin[],
  scope: Scope,
): string {
  const ids = twins.map((twin) => `${twin.id} (enabled in ${twin.enabledIn})`).join(', ');
  const fix =
    scope === 'project'
      ? `remove the plugin: ${twins.map((twin) => `\`claude plugin uninstall ${twin.id}\``).join(', ')} (the project's handler keeps guarding everyone who clones it)`
      : `remove the handler: \`${guard.name} uninstall --${scope}\` (the plugin keeps the guard, and updates with its marketplace)`;
  return `the plugin ${ids} also runs ${guard.name}, and Claude Code runs both a settings handler and a plugin, so every call is judged twice: ${fix}`;
}

/** What an enabled plugin's handler does with a call the guard would deny. */
export type PluginMode = 'enforcing' | 'strict' | 'monitoring';

/** The mode a plugin's handler asks for (`"monitor"`/`"strict"` in an mcp_tool input, the flags after a
 * bundle), else the one its name says (`<guard>-monitor`, `<guard>-strict`). */
export function pluginMode(plugin: EnabledPlugin, handler: PluginHandler | null): PluginMode {
  if (handler?.type === 'mcp_tool') {
    const input = isJsonObject(handler.handler.input) ? handler.handler.input : {};
    return input.monitor === true ? 'monitoring' : input.strict === true ? 'strict' : 'enforcing';
  }
  if (handler?.type === 'command')
    return isMonitored(handler.args) ? 'monitoring' : isStrictArg(handler.args) ? 'strict' : 'enforcing';
  const name = plugin.id.split('@')[0] ?? '';
  return name.endsWith('-monitor') ? 'monitoring' : name.endsWith('-strict') ? 'strict' : 'enforcing';
}

// What each mode does when its hooks run, would do when they do not, and the wish that keeps it.
const modeWords: Record<PluginMode, { runs: string; idle: string; wish: string }> = {
  enforcing: { runs: 'enforcing: it denies', idle: 'enforcing: it would deny', wish: 'to enforce' },
  strict: {
    runs: 'strict: it denies, and refuses what it cannot judge',
    idle: 'strict: it would deny, and refuse what it cannot judge',
    wish: 'to enforce in strict mode',
  },
  monitoring: {
    runs: 'monitoring: it denies nothing and records each would-deny',
    idle: 'monitoring: it would record each would-deny',
    wish: 'to monitor only',
  },
};

/**
 * One sentence when several enabled plugins share the guard's name, or null. Claude Code 2.1.332
 * runs the hooks of one plugin per name, the first in enabledPlugins (`plugins` is in that order),
 * and none of the others': the sentence says which runs and what it does, and for each the one
 * command that leaves it alone.
 */
export function describeSameNamePlugins(
  guard: Pick<GuardDefinition, 'name'>,
  plugins: { plugin: EnabledPlugin; mode: PluginMode }[],
  home: string,
): string | null {
  const [first, ...idle] = plugins;
  if (first === undefined || idle.length === 0) return null;
  const ids = plugins.map(({ plugin }) => plugin.id).join(' and ');
  const idleWords = idle.map(({ plugin, mode }) => `${plugin.id} (${modeWords[mode].idle})`).join(' and ');
  const keep = plugins.map(({ plugin, mode }) => {
    const others = plugins
      .filter((other) => other.plugin !== plugin)
      .map((other) => uninstallCommand(other.plugin, home));
    const wish =
      new Set(plugins.map((other) => other.mode)).size === plugins.length
        ? `${modeWords[mode].wish}, keep`
        : 'to keep';
    return `${wish} ${plugin.id}: \`${others.join(' && ')}\``;
  });
  return `${ids} are ${idle.length === 1 ? 'both' : 'all'} enabled and carry one plugin name, ${guard.name}: Claude Code runs the hooks of the first in enabledPlugins only, ${first.plugin.id} (${modeWords[first.mode].runs}), so ${idleWords} ${idle.length === 1 ? 'runs' : 'run'} nothing. ${capitalized(keep.join('; '))}`;
}

// `claude plugin uninstall <id>`, with the scope of the settings file that enabled it (the CLI's default is user).
function uninstallCommand(plugin: EnabledPlugin, home: string): string {
  const scope =
    plugin.enabledIn === join(home, '.claude', 'settings.json')
      ? ''
      : plugin.enabledIn.endsWith('settings.local.json')
        ? ' --scope local'
        : ' --scope project';
  return `claude plugin uninstall ${plugin.id}${scope}`;
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** A JSON object file (a leading BOM allowed), or null when it is missing or not one. */
export async function readJson(file: string): Promise<Record<string, unknown> | null> {
  try {
    const text = await readFile(file, 'utf8');
    const parsed: unknown = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    return isJsonObject(parsed) ? parsed : null;
  } catch {
    return null;
  }
}
