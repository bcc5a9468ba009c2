import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isJsonObject } from '@kit/fail-open';

/**
 * The settings files whose `enabledPlugins` a Claude Code session at `projectDir` reads, lowest
 * precedence first: the user's (`<config dir>/settings.json`), then the project's
 * `.claude/settings.json`, then its `.claude/settings.local.json`.
 */
export function enabledPluginsFiles(configDir: string, projectDir: string | null | undefined): string[] {
  const files = [join(configDir, 'settings.json')];
  if (projectDir)
    files.push(
      join(projectDir, '.claude', 'settings.json'),
      join(projectDir, '.claude', 'settings.local.json'),
    );
  return [...new Set(files)];
}

/**
 * The plugins (`<plugin>@<marketplace>`) these settings files enable, each with the file that
 * turned it on last, in the host's order. The host merges `enabledPlugins` key by key, a later file
 * over an earlier one (a project's `false` disables what the user enabled, a local `true` enables it
 * again), and a key keeps the place it first had: that order decides which of two plugins of one
 * name runs (cli/plugins.ts, describeSameNamePlugins). A file that cannot be read or parsed counts as
 * empty. Managed settings and `--settings` files are not read: a guard they enable is loaded at its
 * first call instead.
 */
export function enabledPlugins(files: readonly string[]): Map<string, string> {
  let merged: Record<string, unknown> = {};
  const enabledIn = new Map<string, string>();
  for (const file of files) {
    const plugins = readJsonObject(file)?.enabledPlugins;
    if (!isJsonObject(plugins)) continue;
    merged = { ...merged, ...plugins };
    for (const [id, on] of Object.entries(plugins)) if (on === true) enabledIn.set(id, file);
  }
  const enabled = new Map<string, string>();
  for (const [id, on] of Object.entries(merged))
    if (on === true) enabled.set(id, enabledIn.get(id) as string);
  return enabled;
}

/** A JSON file's object (a UTF-8 byte-order mark allowed), or null. */
export function readJsonObject(file: string): Record<string, unknown> | null {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8').replace(/^\uFEFF/, ''));
    return isJsonObject(parsed) ? parsed : null;
  } catch {
    return null;
  }
}
