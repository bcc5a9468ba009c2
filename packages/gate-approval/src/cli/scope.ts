import { extname, join } from 'node:path';
import type { Outcome } from '@kit/fail-open';
import type { CliIO, GuardDefinition } from '../guard.ts';
import { usage } from './args.ts';

/** Which settings file a command works on. */
export type Scope = 'user' | 'project' | 'local';

/** The files one scope uses. */
export interface ScopeLocations {
  scope: Scope;
  settingsPath: string; // ~/.claude/settings.json | <cwd>/.claude/settings.json | <cwd>/.claude/settings.local.json
  bundlePath: string; // ~/.claude/hooks/<guard>.cjs | <cwd>/.claude/hooks/<guard>.cjs (the built bundle's extension)
  siblingSettingsPaths: string[]; // other settings files that may point at the same bundle
  outerFolders?: string[]; // folders above those two that install may have made (.github): uninstall removes them when empty
  keepSettingsFolder?: boolean; // the settings file's folder is the host's home ($CODEX_HOME): never removed
}

/** The flags that choose a scope. */
export const scopeFlags: string[] = ['--user', '--project', '--local'];

/** The scope named by the flags (default user), or an error when more than one is given. */
export function scopeFromFlags(flags: Set<string>): Outcome<Scope, 'usage'> {
  const chosen = scopeFlags.filter((flag) => flags.has(flag));
  if (chosen.length > 1) return usage(`choose one scope, got ${chosen.join(' and ')}`);
  return { ok: true, value: chosen.length === 0 ? 'user' : (chosen[0]?.slice(2) as Scope) };
}

/**
 * Where a scope keeps the settings file and the guard's bundle. The copy keeps the built bundle's
 * extension: it tells node whether the file is CommonJS (.cjs) or an ES module (.mjs).
 */
export function locate(
  guard: Pick<GuardDefinition, 'name' | 'bundle'>,
  scope: Scope,
  io: CliIO,
): ScopeLocations {
  const claudeDir = scope === 'user' ? join(io.home, '.claude') : join(io.cwd, '.claude');
  const bundlePath = join(claudeDir, 'hooks', `${guard.name}${extname(guard.bundle) || '.cjs'}`);
  const projectSettings = join(claudeDir, 'settings.json');
  const localSettings = join(claudeDir, 'settings.local.json');
  if (scope === 'user') return { scope, settingsPath: projectSettings, bundlePath, siblingSettingsPaths: [] };
  return scope === 'project'
    ? { scope, settingsPath: projectSettings, bundlePath, siblingSettingsPaths: [localSettings] }
    : { scope, settingsPath: localSettings, bundlePath, siblingSettingsPaths: [projectSettings] };
}
