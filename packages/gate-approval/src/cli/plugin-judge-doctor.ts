import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isJsonObject } from '@kit/fail-open';
import { InstalledGuards, judgePluginName } from '../mcp/installed-guards.ts';
import type { Check } from './check.ts';
import type { DoctorContext } from './doctor-part.ts';
import { type JudgeServerStart, judgeControl } from './judge-doctor.ts';
import { type EnabledPlugin, findEnabledPlugins, pluginRoot, readJson } from './plugins.ts';

/** The server every guard plugin's mcp_tool handler names: the kit-judge plugin's `judge`. */
export const judgePluginServer: string = `plugin:${judgePluginName}:judge`;

const pluginRootPlaceholder = '${CLAUDE_PLUGIN_ROOT}';

/**
 * Claude Code's doctor for a guard plugin whose handler is `mcp_tool` (the plugin route's MCP path):
 * the handler names kit-judge's server; the kit-judge plugin is enabled and installed for this
 * project (read as plugins.ts reads the guard's); its `.mcp.json` server, started as the host starts
 * it (`CLAUDE_PLUGIN_ROOT` its installed copy, `CLAUDE_PLUGIN_DATA` a scratch `kit-judge-<marketplace>`
 * folder, in the project), lists no tools and denies the positive control sent through the handler's
 * own input template. A handler asking in strict mode is said to be strict.
 */
export async function checkPluginJudge(
  context: DoctorContext,
  plugin: EnabledPlugin,
  handler: Record<string, unknown>,
  from: string,
  projectDir: string,
): Promise<Check[]> {
  const { guard, io } = context;
  const blocks = handler.onFailure === 'block';
  const monitoring = isMonitorHandler(handler);
  const checks: Check[] = [
    {
      ok: true,
      text: `the plugin's handler (${from}): matcher ${guard.matcher}, mcp_tool ${String(handler.server)} ${String(handler.tool)}, timeout ${String(handler.timeout)} s${modesOf(handler)}`,
    },
  ];
  const marketplace = plugin.id.split('@')[1] ?? '';
  const install = `\`claude plugin install ${judgePluginName}@${marketplace}\``;
  const unjudged = blocks ? 'every call it matches is blocked' : 'every call runs unjudged';
  if (handler.server !== judgePluginServer)
    return fail(
      checks,
      `the handler names the MCP server ${String(handler.server)}, not ${judgePluginServer}: reinstall the plugin: \`claude plugin install ${plugin.id}\``,
    );
  const judges = await findEnabledPlugins({ name: judgePluginName }, io, projectDir);
  const judge = judges.find((found) => found.id === `${judgePluginName}@${marketplace}`) ?? judges[0];
  if (judge === undefined)
    return fail(
      checks,
      `the handler names ${judgePluginServer}, but the ${judgePluginName} plugin is not enabled for this project: until it is, ${unjudged}: ${install}`,
    );
  const root = await pluginRoot(judge, io);
  if (root === null)
    return fail(
      checks,
      `the ${judgePluginName} plugin ${judge.id} (enabled in ${judge.enabledIn}) is not installed: until it is, ${unjudged}: ${install}`,
    );
  const server = await declaredServer(root);
  if (server === null)
    return fail(
      checks,
      `the ${judgePluginName} plugin in ${root} declares no judge server in .mcp.json, so its server cannot start: until it does, ${unjudged}: ${install}`,
    );
  checks.push({
    ok: true,
    text: `server ${judgePluginServer}: ${[server.command, ...server.args].join(' ')} (the plugin ${judge.id}, enabled in ${judge.enabledIn})`,
  });
  checks.push({ ok: true, text: servedGuardsText(io.home, root, judge.id, projectDir) });
  const scratch = await mkdtemp(join(tmpdir(), 'kit-doctor-'));
  try {
    // The judge reads its marketplace from its data folder's name, as the host names it.
    const data = join(scratch, `${judgePluginName}-${judge.id.split('@')[1] ?? marketplace}`);
    await mkdir(data);
    const env = { HOME: io.home, CLAUDE_PLUGIN_ROOT: root, CLAUDE_PLUGIN_DATA: data };
    // A monitor handler's control is sent as enforce mode sends it: the judge judges both alike.
    const asked = monitoring ? enforcingHandler(handler) : handler;
    checks.push(...(await judgeControl(context, { ...server, env }, asked, judgePluginServer)));
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  if (blocks && checks.some((check) => !check.ok))
    checks.push({
      ok: false,
      text: `this handler has "onFailure": "block" (strict): until it is fixed, the host blocks every ${guard.matcher} call it matches`,
    });
  if (monitoring) checks.push({ ok: true, text: monitoringText(guard.name, plugin.id) });
  return checks;
}

/**
 * Which guard plugins the judge serves in this project (enabled here: loaded when a session starts)
 * and which are installed but disabled here (never loaded), as the judge itself reads them.
 */
function servedGuardsText(home: string, judgeRoot: string, judgeId: string, projectDir: string): string {
  const marketplace = judgeId.split('@')[1] ?? '';
  const guards = new InstalledGuards({
    configDir: join(home, '.claude'),
    pluginRoot: judgeRoot,
    // The judge reads its marketplace from its data folder's name: no folder is made or read.
    pluginData: join(home, '.claude', 'plugins', 'data', `${judgePluginName}-${marketplace}`),
    projectDir,
  }).guardPlugins();
  const ids = (enabled: boolean) =>
    guards
      .filter((guard) => guard.enabled === enabled)
      .map((guard) => guard.id)
      .sort();
  const served = ids(true);
  const disabled = ids(false);
  return `the judge serves these guard plugins here (loaded when a session starts): ${served.length > 0 ? served.join(', ') : 'none'}${disabled.length > 0 ? `; installed but disabled here (never loaded): ${disabled.join(', ')}` : ''}`;
}

/** True when the handler asks the judge in monitor mode (`"monitor": true` in its input: a `<guard>-monitor` plugin). */
export function isMonitorHandler(handler: Record<string, unknown>): boolean {
  return isJsonObject(handler.input) && handler.input.monitor === true;
}

// The modes a handler asks for, in words, after its matcher and timeout.
function modesOf(handler: Record<string, unknown>): string {
  const strict = isJsonObject(handler.input) && handler.input.strict === true;
  return [
    strict ? ', strict ("strict": true: the judge asks the guard in strict mode)' : '',
    isMonitorHandler(handler)
      ? ', monitoring ("monitor": true: the judge judges each call as enforce mode does, records each would-deny in the audit trail and tells the model nothing)'
      : '',
    handler.onFailure === 'block' ? ', onFailure block (the host blocks the call when the judge fails)' : '',
  ].join('');
}

// The handler as the enforcing plugin has it: its input without `"monitor": true`.
function enforcingHandler(handler: Record<string, unknown>): Record<string, unknown> {
  const { monitor: _monitor, ...input } = handler.input as Record<string, unknown>;
  return { ...handler, input };
}

/** What doctor says of a monitor plugin: it denies nothing, and the one command that makes it enforce. */
export function monitoringText(guardName: string, pluginId: string): string {
  const marketplace = pluginId.split('@')[1] ?? '';
  return `monitoring: ${pluginId} denies nothing; \`${guardName} report\` lists what it would have denied. To enforce: \`claude plugin uninstall ${pluginId} && claude plugin install ${guardName}@${marketplace}\``;
}

function fail(checks: Check[], text: string): Check[] {
  return [...checks, { ok: false, text }];
}

// The `judge` server of the kit-judge plugin's .mcp.json, ${CLAUDE_PLUGIN_ROOT} filled in, or null.
async function declaredServer(root: string): Promise<Omit<JudgeServerStart, 'env'> | null> {
  const servers = (await readJson(join(root, '.mcp.json')))?.mcpServers;
  const server = isJsonObject(servers) ? servers.judge : undefined;
  if (!isJsonObject(server) || typeof server.command !== 'string') return null;
  const args = Array.isArray(server.args) ? server.args.filter((arg) => typeof arg === 'string') : [];
  const fill = (text: string) => text.split(pluginRootPlaceholder).join(root);
  return { command: fill(server.command), args: args.map(fill) };
}
