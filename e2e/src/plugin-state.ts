import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ClaudeRun } from './claude.ts';

/** The audit trail's lines in a scratch HOME (`~/.local/state/kit-hooks/audit.jsonl`), parsed; [] when there is none. */
export function auditLines(home: string): Record<string, unknown>[] {
  const file = join(home, '.local', 'state', 'kit-hooks', 'audit.jsonl');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** The PreToolUse hooks the host started in a run (`--include-hook-events`): one per handler per call. */
export function preToolUseHooks(run: ClaudeRun): ClaudeRun['events'] {
  return run.events.filter(
    (event) =>
      event.type === 'system' && event.subtype === 'hook_started' && event.hook_event === 'PreToolUse',
  );
}

/** The plugin ids `installed_plugins.json` of a scratch HOME records, sorted. */
export function installedIds(home: string): string[] {
  const file = join(home, '.claude', 'plugins', 'installed_plugins.json');
  return Object.keys(
    (JSON.parse(readFileSync(file, 'utf8')) as { plugins: Record<string, unknown> }).plugins,
  ).sort();
}
