import { isJsonObject } from '@kit/fail-open';
import { buildHandler, findOwnHandlers, planInstall, planUninstall } from '../handler.ts';
import type { HostWiring, InstalledEntry } from '../host-wiring.ts';
import { locate } from '../scope.ts';
import type { SettingsDocument } from '../settings-file.ts';

/** Claude Code: the exec-form handler under hooks.PreToolUse of a settings file, as install has always written it. */
export const claudeWiring: HostWiring = {
  host: 'claude',
  title: 'Claude Code',
  scopes: ['user', 'project', 'local'],
  unsupported: () => null,
  strictUnsupported: null,
  locate,
  shapeProblem: () => null, // readSettings checks hooks.PreToolUse itself
  planInstall: (document, guard, handlerArg, { strict, monitor }) =>
    planInstall(document, guard, buildHandler(handlerArg, { strict, monitor })),
  planUninstall: (document, guardName) => planUninstall(document, guardName),
  findOwn: (document, guardName) => matcherGroupEntries(document, guardName, 'PreToolUse', 1000),
  afterInstall: () => [],
  runsThrough: [],
};

/** True when `document.hooks[event]`, if present, is an array: the shape every grouped host file shares. */
export function eventListProblem(document: Record<string, unknown>, event: string): string | null {
  const hooks = document.hooks;
  if (hooks === undefined) return null;
  if (!isJsonObject(hooks)) return '"hooks" is not an object';
  if (hooks[event] !== undefined && !Array.isArray(hooks[event])) return `"hooks.${event}" is not an array`;
  return null;
}

/**
 * A guard's handlers in a document of matcher groups under `hooks.<event>` (Claude Code's layout,
 * which Codex and Gemini CLI share), read back; the host counts a timeout in units of `msPerTimeoutUnit`.
 */
export function matcherGroupEntries(
  document: SettingsDocument,
  guardName: string,
  event: string,
  msPerTimeoutUnit: number,
): InstalledEntry[] {
  return findOwnHandlers(document, guardName, event).map((place) => {
    const handler = place.group.hooks[place.handlerIndex] as Record<string, unknown>;
    return {
      handler,
      matcher: typeof place.group.matcher === 'string' ? place.group.matcher : undefined,
      command: typeof handler.command === 'string' ? handler.command : undefined,
      timeoutMs: typeof handler.timeout === 'number' ? handler.timeout * msPerTimeoutUnit : undefined,
    };
  });
}
