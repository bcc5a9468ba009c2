import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isJsonObject } from '@kit/fail-open';
import { enabledPlugins } from '../enabled-plugins.ts';
import { judgePluginDataFolder, judgeServerDataFolder } from '../mcp/session-status.ts';
import { isMonitored } from '../monitor.ts';
import { strictStateOf } from './strict-state.ts';

/** How one kit guard is wired in the settings a session reads. */
export interface InstalledGuard {
  guard: string;
  monitoring: boolean; // `--monitor` after the bundle
  strict: boolean; // both halves (install --strict), or the strict plugin
  via: 'settings' | 'plugin';
  judge: boolean; // an `mcp_tool` handler names the guard, or a plugin runs it: the MCP judge is wired
  judgeRecords: string | null; // the data folder that judge records its sessions in (session-status.ts), when known
}

// A kit guard's bundle as install places it: <guard>.cjs (or .mjs, .js).
const bundleName = /(?:^|[\\/])([a-z][a-z0-9-]*-(?:guard|gate))\.(?:cjs|mjs|js)$/;
// A kit plugin as enabledPlugins names it: <guard>[-strict|-monitor]@<marketplace>.
const pluginName = /^([a-z][a-z0-9-]*-(?:guard|gate))(-strict|-monitor)?@([\w.-]+)$/;

/**
 * The kit guards the settings of a session at `projectDir` wire, in user, project and local
 * settings, each guard once (a later file adds to an earlier one's words). A file that cannot be
 * read or parsed is skipped: a status line says what it can. `env` places the records of the judge
 * server `install` declares (the kit's state folder).
 */
export async function findInstalledGuards(
  home: string,
  projectDir: string,
  env: Record<string, string | undefined> = {},
): Promise<InstalledGuard[]> {
  const files = [
    join(home, '.claude', 'settings.json'),
    join(projectDir, '.claude', 'settings.json'),
    join(projectDir, '.claude', 'settings.local.json'),
  ];
  const found = new Map<string, InstalledGuard>();
  const add = (entry: InstalledGuard) => {
    const known = found.get(entry.guard);
    found.set(
      entry.guard,
      known === undefined
        ? entry
        : {
            ...known,
            monitoring: known.monitoring || entry.monitoring,
            strict: known.strict || entry.strict,
            judge: known.judge || entry.judge,
            judgeRecords: known.judgeRecords ?? entry.judgeRecords,
          },
    );
  };
  const records = { claudeDir: join(home, '.claude'), server: judgeServerDataFolder(env, home) ?? null };
  for (const file of files) for (const entry of handlersOf(await readJson(file), records.server)) add(entry);
  for (const entry of pluginsOf(enabledPlugins(files), records.claudeDir)) add(entry);
  return [...found.values()];
}

function handlersOf(document: unknown, judgeRecords: string | null): InstalledGuard[] {
  if (!isJsonObject(document)) return [];
  const entries: InstalledGuard[] = [];
  const hooks = isJsonObject(document.hooks) ? document.hooks.PreToolUse : undefined;
  for (const group of Array.isArray(hooks) ? hooks : []) {
    if (!isJsonObject(group) || !Array.isArray(group.hooks)) continue;
    for (const handler of group.hooks) {
      if (!isJsonObject(handler)) continue;
      const entry = handler.type === 'mcp_tool' ? judgeEntry(handler, judgeRecords) : commandEntry(handler);
      if (entry !== null) entries.push(entry);
    }
  }
  return entries;
}

/**
 * The guard plugins `enabledPlugins` turns on, one per guard: of a guard's plugins (`<guard>`,
 * `-strict`, `-monitor`: one plugin name) Claude Code runs the first enabled only, so its words are the guard's.
 */
function pluginsOf(enabled: ReadonlyMap<string, string>, claudeDir: string): InstalledGuard[] {
  const entries: InstalledGuard[] = [];
  for (const id of enabled.keys()) {
    // Every kit guard plugin is judged by its marketplace's kit-judge plugin (an mcp_tool handler).
    const match = pluginName.exec(id);
    if (match?.[1] && match[3] && !entries.some((entry) => entry.guard === match[1]))
      entries.push({
        guard: match[1],
        monitoring: match[2] === '-monitor',
        strict: match[2] === '-strict',
        via: 'plugin',
        judge: true,
        judgeRecords: judgePluginDataFolder(claudeDir, match[3]),
      });
  }
  return entries;
}

function commandEntry(handler: Record<string, unknown>): InstalledGuard | null {
  const args = Array.isArray(handler.args) ? handler.args.filter((arg) => typeof arg === 'string') : [];
  const guard = args.map((arg) => bundleName.exec(arg)?.[1]).find((name) => name !== undefined);
  if (guard === undefined) return null;
  return {
    guard,
    monitoring: isMonitored(args),
    strict: strictStateOf(handler) === 'strict',
    via: 'settings',
    judge: false,
    judgeRecords: null,
  };
}

// An `mcp_tool` handler names its guard in its input (`"guard": "git-write-gate"`) or its server;
// `"monitor": true` in its input is monitor mode.
function judgeEntry(handler: Record<string, unknown>, records: string | null): InstalledGuard | null {
  const input = isJsonObject(handler.input) ? handler.input : {};
  const named = [input.guard, handler.server].find(
    (value): value is string => typeof value === 'string' && /-(?:guard|gate)\b/.test(value),
  );
  const guard = named === undefined ? null : /[a-z][a-z0-9-]*-(?:guard|gate)/.exec(named)?.[0];
  if (guard === undefined || guard === null) return null;
  return {
    guard,
    monitoring: input.monitor === true,
    strict: handler.onFailure === 'block',
    via: 'settings',
    judge: true,
    judgeRecords: records,
  };
}

async function readJson(file: string): Promise<unknown> {
  try {
    return JSON.parse((await readFile(file, 'utf8')).replace(/^\uFEFF/, ''));
  } catch {
    return null;
  }
}
