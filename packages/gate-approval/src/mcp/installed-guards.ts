import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { isJsonObject } from '@kit/fail-open';
import { enabledPlugins, enabledPluginsFiles } from '../enabled-plugins.ts';

/** The judge plugin's name in the kit's marketplace: every guard plugin's handler names `plugin:kit-judge:judge`. */
export const judgePluginName = 'kit-judge';

/** Where a guard's judge module sits inside its plugin (its npm package). */
const judgeModuleInPlugin = join('dist', 'judge.cjs');

/** One record of Claude Code's `plugins/installed_plugins.json` (version 2). */
interface InstalledRecord {
  scope?: string;
  installPath?: string;
  projectPath?: string;
}

/** The session's facts the judge plugin finds guards with: all from the server's environment. */
export interface JudgePluginPlace {
  /** Claude Code's config folder (`$CLAUDE_CONFIG_DIR`, else `~/.claude`). */
  configDir: string;
  /** The judge plugin's own folder (`$CLAUDE_PLUGIN_ROOT`). */
  pluginRoot: string | undefined;
  /** The judge plugin's data folder (`$CLAUDE_PLUGIN_DATA`: `…/plugins/data/kit-judge-<marketplace>`). */
  pluginData: string | undefined;
  /** The session's project (`$CLAUDE_PROJECT_DIR`): a project-scoped install there wins over the user's. */
  projectDir: string | undefined;
}

/** The place read from the server's environment (the session's, as the host started it). */
export function judgePluginPlace(env: Record<string, string | undefined>): JudgePluginPlace {
  const home = env.HOME ?? env.USERPROFILE ?? '';
  return {
    configDir: env.CLAUDE_CONFIG_DIR || join(home, '.claude'),
    pluginRoot: env.CLAUDE_PLUGIN_ROOT || undefined,
    pluginData: env.CLAUDE_PLUGIN_DATA || undefined,
    projectDir: env.CLAUDE_PROJECT_DIR || undefined,
  };
}

/**
 * Finds each guard plugin's judge module for the one judge process of a session. A guard plugin's
 * handler names the plugin it belongs to (`git-write-gate-strict`) and the guard it asks
 * (`git-write-gate`); the module is `<installPath>/dist/judge.cjs` of that plugin as Claude Code
 * recorded it in `installed_plugins.json` (re-read when the file changes, so an update of one guard
 * is found at its next call), else the guard's package folder beside the judge plugin's own (a
 * directory marketplace, a checkout, `--plugin-dir` folders side by side). Only the guards enabled
 * for the session are warmed up at start (enabledModules).
 */
export class InstalledGuards {
  private records: Record<string, InstalledRecord[]> = {};
  private readStamp = '';

  constructor(private readonly place: JudgePluginPlace) {}

  /** The absolute path of the judge module serving `guard` for `plugin`, or undefined when none is found. */
  moduleOf(plugin: string, guard: string): string | undefined {
    const installed = this.installPath(plugin);
    if (installed !== undefined) {
      const module = join(installed, judgeModuleInPlugin);
      if (existsSync(module)) return module;
    }
    if (this.place.pluginRoot === undefined) return undefined;
    const sibling = join(dirname(this.place.pluginRoot), guard, judgeModuleInPlugin);
    return existsSync(sibling) ? sibling : undefined;
  }

  /**
   * The judge modules of the guard plugins of the judge's marketplace that this session runs, as
   * the host decides it (see guardPlugins). What the judge warms up at start; a guard these miss
   * (enabled by `--settings`, managed settings, or mid-session) is loaded at its first call, and a
   * disabled one never is.
   */
  enabledModules(): string[] {
    return [
      ...new Set(
        this.guardPlugins()
          .filter((plugin) => plugin.enabled)
          .map((plugin) => plugin.module),
      ),
    ];
  }

  /**
   * The guard plugins (`<plugin>@<marketplace>`) of the judge's marketplace installed at a scope
   * that applies here (the user's, or this project's) with a judge module, each with whether the
   * settings the session reads enable it (enabled-plugins.ts). Never the judge's own.
   */
  guardPlugins(): { id: string; module: string; enabled: boolean }[] {
    this.refresh();
    const suffix = `@${this.marketplace() ?? ''}`;
    const enabled = enabledPlugins(enabledPluginsFiles(this.place.configDir, this.place.projectDir));
    return Object.entries(this.records)
      .filter(([id]) => id.endsWith(suffix) && !id.startsWith(`${judgePluginName}@`))
      .map(([id, records]) => ({ id, path: this.applicableRecord(records)?.installPath }))
      .filter((entry): entry is { id: string; path: string } => typeof entry.path === 'string')
      .map(({ id, path }) => ({ id, module: join(path, judgeModuleInPlugin), enabled: enabled.has(id) }))
      .filter((plugin) => existsSync(plugin.module));
  }

  private installPath(plugin: string): string | undefined {
    this.refresh();
    const marketplace = this.marketplace();
    const key =
      marketplace !== undefined
        ? `${plugin}@${marketplace}`
        : Object.keys(this.records).find((name) => name.startsWith(`${plugin}@`));
    const records = key === undefined ? [] : (this.records[key] ?? []);
    // The host called this plugin's handler, so it runs here: any record is better than none.
    const chosen = this.applicableRecord(records) ?? records[0];
    return typeof chosen?.installPath === 'string' ? chosen.installPath : undefined;
  }

  /** This project's install (project or local scope) over the user's; another project's never. */
  private applicableRecord(records: readonly InstalledRecord[]): InstalledRecord | undefined {
    const project = records.find(
      (r) => r.projectPath !== undefined && r.projectPath === this.place.projectDir,
    );
    return project ?? records.find((r) => r.scope === 'user');
  }

  /** The judge plugin's marketplace: its data folder is `kit-judge-<marketplace>`. */
  private marketplace(): string | undefined {
    const data = this.place.pluginData === undefined ? '' : basename(this.place.pluginData);
    const prefix = `${judgePluginName}-`;
    if (data.startsWith(prefix)) return data.slice(prefix.length);
    const judgeKey = Object.keys(this.records).find((name) => name.startsWith(`${judgePluginName}@`));
    return judgeKey?.slice(judgePluginName.length + 1);
  }

  private refresh(): void {
    const file = join(this.place.configDir, 'plugins', 'installed_plugins.json');
    let stamp: string;
    try {
      const stat = statSync(file);
      stamp = `${stat.mtimeMs}:${stat.size}`;
    } catch {
      this.records = {};
      this.readStamp = '';
      return;
    }
    if (stamp === this.readStamp) return;
    this.readStamp = stamp;
    this.records = parseInstalled(file);
  }
}

function parseInstalled(file: string): Record<string, InstalledRecord[]> {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    const plugins = isJsonObject(parsed) ? parsed.plugins : undefined;
    if (!isJsonObject(plugins)) return {};
    const records: Record<string, InstalledRecord[]> = {};
    for (const [key, value] of Object.entries(plugins)) {
      if (Array.isArray(value)) records[key] = value.filter(isJsonObject) as InstalledRecord[];
    }
    return records;
  } catch {
    return {};
  }
}
