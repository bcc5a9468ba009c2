import { extname, join } from 'node:path';
import type { Outcome } from '@kit/fail-open';
import type { CliIO, GuardDefinition } from '../guard.ts';
import { usage } from './args.ts';
import { findProjectDir, projectDirPlaceholder } from './project-dir.ts';

/** Which settings file a command works on. */
export type Scope = 'user' | 'project' | 'local';

/** The files one scope uses. */
export interface ScopeLocations {
  scope: Scope;
  projectDir: string | null; // the work tree's top (or cwd outside one); null for the user scope
  settingsPath: string; // ~/.claude/settings.json | <project>/.claude/settings.json | <project>/.claude/settings.local.json
  bundlePath: string; // ~/.claude/hooks/<guard>.cjs | <project>/.claude/hooks/<guard>.cjs (the built bundle's extension)
  handlerArg: string; // what the handler's args name: bundlePath, or ${CLAUDE_PROJECT_DIR}/.claude/hooks/<guard>.cjs
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
 * Where a scope keeps the settings file and the guard's bundle. A project scope is the work tree's
 * top, wherever below it the command runs, and its handler names the bundle relative to
 * ${CLAUDE_PROJECT_DIR} (with `/`, which node takes on every OS), so a committed entry runs in a
 * teammate's clone. The copy keeps the built bundle's extension: it tells node whether the file is
 * CommonJS (.cjs) or an ES module (.mjs).
 */
export async function locate(
  guard: Pick<GuardDefinition, 'name' | 'bundle'>,
  scope: Scope,
  io: CliIO,
): Promise<ScopeLocations> {
  const bundleName = `${guard.name}${extname(guard.bundle) || '.cjs'}`;
  if (scope === 'user') {
    const claudeDir = join(io.home, '.claude');
    const bundlePath = join(claudeDir, 'hooks', bundleName);
    return {
      scope,
      projectDir: null,
      settingsPath: join(claudeDir, 'settings.json'),
      bundlePath,
      handlerArg: bundlePath,
      siblingSettingsPaths: [],
    };
  }
  const projectDir = await findProjectDir(io.cwd);
  const claudeDir = join(projectDir, '.claude');
  const projectSettings = join(claudeDir, 'settings.json');
  const localSettings = join(claudeDir, 'settings.local.json');
  return {
    scope,
    projectDir,
    settingsPath: scope === 'project' ? projectSettings : localSettings,
    bundlePath: join(claudeDir, 'hooks', bundleName),
    handlerArg: `${projectDirPlaceholder}/.claude/hooks/${bundleName}`,
    siblingSettingsPaths: [scope === 'project' ? localSettings : projectSettings],
  };
}

/**
 * Where a host that keeps its hooks in one folder puts them: `<dir>/<settingsFile>`, and the bundle
 * in `<dir>/hooks/`. A project install is the current folder's (where the host is started), and its
 * handler names the bundle by its absolute path.
 */
export function hostFolderLocations(
  dir: string,
  settingsFile: string,
  guard: { name: string; bundle: string },
  scope: Scope,
  io: CliIO,
): ScopeLocations {
  const bundlePath = join(dir, 'hooks', `${guard.name}${extname(guard.bundle) || '.cjs'}`);
  return {
    scope,
    projectDir: scope === 'user' ? null : io.cwd,
    settingsPath: join(dir, settingsFile),
    bundlePath,
    handlerArg: bundlePath,
    siblingSettingsPaths: [],
  };
}
