import { stat } from 'node:fs/promises';
import type { CliIO, GuardDefinition } from '../guard.ts';
import type { HostWiring } from './host-wiring.ts';
import type { ScopeLocations } from './scope.ts';
import { readHostSettings } from './settings-file.ts';

/** Where a guard is installed for one host: every scope the host has, looked at (issue 26). */
export interface ScopeSurvey {
  installed: ScopeLocations[]; // the scopes whose settings file holds the guard's handler (or, `withBundles`, its bundle)
  looked: ScopeLocations[]; // every scope of the host, in its order
}

/**
 * Looks for the guard in every scope of the host, for a command given no scope: doctor and
 * uninstall then act where it is, never only in the default scope. `withBundles` counts a scope
 * whose bundle is there without a handler (uninstall has something to remove); a settings file that
 * cannot be read counts as installed, so the command reports its problem rather than skip it.
 */
export async function surveyScopes(
  guard: GuardDefinition,
  wiring: HostWiring,
  io: CliIO,
  withBundles: boolean,
): Promise<ScopeSurvey> {
  const looked: ScopeLocations[] = [];
  const installed: ScopeLocations[] = [];
  for (const scope of wiring.scopes) {
    const where = await wiring.locate(guard, scope, io);
    looked.push(where);
    const read = await readHostSettings(where.settingsPath, wiring.shapeProblem);
    const hasHandler =
      !read.ok || (read.value.exists && wiring.findOwn(read.value.document, guard.name).length > 0);
    if (hasHandler || (withBundles && (await isFile(where.bundlePath)))) installed.push(where);
  }
  return { installed, looked };
}

/** `user (~/.claude/settings.json), project (/p/.claude/settings.json)`: where a survey looked. */
export function describeLooked(survey: ScopeSurvey): string {
  return survey.looked.map((where) => `${where.scope} (${where.settingsPath})`).join(', ');
}

async function isFile(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isFile(),
    () => false,
  );
}
