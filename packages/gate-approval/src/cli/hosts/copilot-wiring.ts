import { extname, join } from 'node:path';
import { isJsonObject } from '@kit/fail-open';
import type { CliIO } from '../../guard.ts';
import { handlerTimeoutSeconds, type InstallChange, isOwnHandler } from '../handler.ts';
import type { HostWiring, InstalledEntry } from '../host-wiring.ts';
import type { Scope, ScopeLocations } from '../scope.ts';
import type { SettingsDocument } from '../settings-file.ts';
import { checkClaudeOverlap } from './copilot-claude-overlap.ts';
import { hookCommand } from './shell-command.ts';

// Copilot CLI 1.0.102: a hooks file of its own per guard, `{ version: 1, hooks: { preToolUse: [handler] } }`,
// the handlers in a flat list, each with its own `matcher` (an anchored regex on the camelCase tool
// name), the shell command under `bash`, `timeoutSec`. It DENIES a call whenever a preToolUse hook
// exits non-zero for any reason, so the command is wrapped to fail open.

/** Where Copilot keeps its user configuration: $COPILOT_HOME, else ~/.copilot. */
export function copilotHome(io: CliIO): string {
  const fromEnv = io.env.COPILOT_HOME;
  return fromEnv !== undefined && fromEnv !== '' ? fromEnv : join(io.home, '.copilot');
}

// A project install goes in the folder the command runs in (where the host is started), and its
// handler names the bundle by its absolute path.
async function locateCopilot(
  guard: { name: string; bundle: string },
  scope: Scope,
  io: CliIO,
): Promise<ScopeLocations> {
  const dir = scope === 'user' ? join(copilotHome(io), 'hooks') : join(io.cwd, '.github', 'hooks');
  const bundlePath = join(dir, `${guard.name}${extname(guard.bundle) || '.cjs'}`);
  return {
    scope,
    projectDir: scope === 'user' ? null : io.cwd,
    settingsPath: join(dir, `${guard.name}.json`),
    bundlePath,
    handlerArg: bundlePath,
    siblingSettingsPaths: [],
    ...(scope === 'project' ? { outerFolders: [join(io.cwd, '.github')] } : {}),
  };
}

/** The Copilot CLI tool each kit matcher stands for. */
const copilotTools: Record<string, string> = { Bash: 'bash', Read: 'view' };

const event = 'preToolUse';

function handlersOf(document: SettingsDocument): unknown[] | null {
  const hooks = document.hooks;
  return isJsonObject(hooks) && Array.isArray(hooks[event]) ? (hooks[event] as unknown[]) : null;
}

// Copilot reads the command from `bash` (and accepts `command`): either names our bundle.
function isOwn(guardName: string, handler: unknown): boolean {
  if (!isJsonObject(handler)) return false;
  const command = typeof handler.bash === 'string' ? handler.bash : handler.command;
  return isOwnHandler(guardName, { command });
}

function planCopilotInstall(
  original: SettingsDocument,
  guard: { name: string; matcher: string },
  bundlePath: string,
): { document: SettingsDocument; change: InstallChange } {
  const handler = {
    type: 'command',
    bash: hookCommand(bundlePath, 'copilot', true),
    matcher: copilotTools[guard.matcher] ?? guard.matcher,
    timeoutSec: handlerTimeoutSeconds,
  };
  const document = structuredClone(original);
  if (Object.keys(document).length === 0) document.version = 1;
  if (!isJsonObject(document.hooks)) document.hooks = {};
  const hooks = document.hooks as Record<string, unknown>;
  if (!Array.isArray(hooks[event])) hooks[event] = [];
  const list = hooks[event] as unknown[];
  const own = list.flatMap((entry, index) => (isOwn(guard.name, entry) ? [index] : []));
  const first = own[0];
  if (first === undefined) list.push(handler);
  else {
    list[first] = handler;
    for (const index of own.slice(1).reverse()) list.splice(index, 1);
  }
  const change: InstallChange =
    JSON.stringify(document) === JSON.stringify(original)
      ? 'unchanged'
      : first === undefined
        ? 'added'
        : 'upgraded';
  return { document, change };
}

function planCopilotUninstall(
  original: SettingsDocument,
  guardName: string,
): { document: SettingsDocument; removed: number; alternatives: SettingsDocument[] } {
  const list = handlersOf(original);
  const removed = list?.filter((entry) => isOwn(guardName, entry)).length ?? 0;
  if (removed === 0) return { document: structuredClone(original), removed: 0, alternatives: [] };
  const keepEverything = structuredClone(original);
  const hooks = keepEverything.hooks as Record<string, unknown>;
  hooks[event] = (hooks[event] as unknown[]).filter((entry) => !isOwn(guardName, entry));
  const document = structuredClone(keepEverything);
  const remaining = document.hooks as Record<string, unknown>;
  if ((remaining[event] as unknown[]).length === 0) delete remaining[event];
  if (Object.keys(remaining).length === 0) delete document.hooks;
  // A file that holds nothing but the version install wrote is ours alone: uninstall removes it.
  const emptied = Object.keys(document).length === 1 && document.version === 1 ? {} : document;
  return { document: emptied, removed, alternatives: [document, keepEverything] };
}

function findCopilotHandlers(document: SettingsDocument, guardName: string): InstalledEntry[] {
  return (handlersOf(document) ?? []).flatMap((entry) => {
    if (!isOwn(guardName, entry)) return [];
    const handler = entry as Record<string, unknown>;
    return [
      {
        handler,
        matcher: typeof handler.matcher === 'string' ? handler.matcher : undefined,
        command: typeof handler.bash === 'string' ? handler.bash : undefined,
        timeoutMs: typeof handler.timeoutSec === 'number' ? handler.timeoutSec * 1000 : undefined,
      },
    ];
  });
}

function copilotShapeProblem(document: SettingsDocument): string | null {
  if (document.version !== undefined && document.version !== 1)
    return `"version" is ${JSON.stringify(document.version)}, and only version 1 is known`;
  const hooks = document.hooks;
  if (hooks === undefined) return null;
  if (!isJsonObject(hooks)) return '"hooks" is not an object';
  if (hooks[event] !== undefined && !Array.isArray(hooks[event])) return `"hooks.${event}" is not an array`;
  return null;
}

/** Copilot CLI: a hooks file of the guard's own, `.github/hooks/<guard>.json` or `$COPILOT_HOME/hooks/<guard>.json`. */
export const copilotWiring: HostWiring = {
  host: 'copilot',
  title: 'Copilot CLI',
  scopes: ['user', 'project'],
  unsupported: (guard) =>
    copilotTools[guard.matcher] === undefined
      ? `Copilot CLI has no tool for the matcher ${guard.matcher}`
      : null,
  strictUnsupported:
    'Copilot CLI lets a call through when a hook times out, and the installed command turns every failure into no opinion (Copilot would otherwise deny every call while the hook is broken)',
  locate: locateCopilot,
  shapeProblem: copilotShapeProblem,
  planInstall: (document, guard, bundlePath) => planCopilotInstall(document, guard, bundlePath),
  planUninstall: planCopilotUninstall,
  findOwn: findCopilotHandlers,
  afterInstall: (scope) =>
    scope === 'project'
      ? [
          'Copilot CLI loads .github/hooks only in a trusted folder (trust it when copilot asks, or list it under',
          '"trustedFolders" in ~/.copilot/config.json).',
        ]
      : [],
  runsThrough: ['/bin/bash', '--norc', '--noprofile', '-c'],
  hostChecks: checkClaudeOverlap,
};
