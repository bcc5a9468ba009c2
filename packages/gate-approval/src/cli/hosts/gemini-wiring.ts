import { join } from 'node:path';
import type { CliIO } from '../../guard.ts';
import { handlerTimeoutSeconds, planInstall, planUninstall } from '../handler.ts';
import type { HostWiring } from '../host-wiring.ts';
import { hostFolderLocations, type Scope, type ScopeLocations } from '../scope.ts';
import { eventListProblem, matcherGroupEntries } from './claude-wiring.ts';
import { hookCommand } from './shell-command.ts';

// Gemini CLI 0.61.0: hooks.BeforeTool in settings.json, matcher groups on its own tool names, a
// command handler with a `name` and `timeout` in milliseconds, run through `bash -c` (no exec form).
// Any exit code but 0, 1 and 2 with text on stderr blocks the call (a missing node is 127), so the
// command is wrapped to fail open.

async function locateGemini(
  guard: { name: string; bundle: string },
  scope: Scope,
  io: CliIO,
): Promise<ScopeLocations> {
  return hostFolderLocations(
    join(scope === 'user' ? io.home : io.cwd, '.gemini'),
    'settings.json',
    guard,
    scope,
    io,
  );
}

/** The Gemini CLI tool each kit matcher stands for. */
const geminiTools: Record<string, string> = { Bash: 'run_shell_command', Read: 'read_file' };

/** Gemini CLI: a shell-form handler under hooks.BeforeTool of `~/.gemini/settings.json` or `.gemini/settings.json`. */
export const geminiWiring: HostWiring = {
  host: 'gemini',
  title: 'Gemini CLI',
  scopes: ['user', 'project'],
  unsupported: (guard) =>
    geminiTools[guard.matcher] === undefined
      ? `Gemini CLI has no tool for the matcher ${guard.matcher}`
      : null,
  strictUnsupported:
    'Gemini CLI lets a call through when a hook times out or crashes (exit 1), and the installed command turns every other failure into no opinion',
  locate: locateGemini,
  shapeProblem: (document) => eventListProblem(document, 'BeforeTool'),
  planInstall: (document, guard, bundlePath) =>
    planInstall(
      document,
      { name: guard.name, matcher: geminiTools[guard.matcher] ?? guard.matcher },
      {
        type: 'command',
        name: guard.name,
        command: hookCommand(bundlePath, 'gemini', true),
        timeout: handlerTimeoutSeconds * 1000,
      },
      'BeforeTool',
    ),
  planUninstall: (document, guardName) => planUninstall(document, guardName, 'BeforeTool'),
  findOwn: (document, guardName) => matcherGroupEntries(document, guardName, 'BeforeTool', 1),
  afterInstall: (scope) =>
    scope === 'project'
      ? [
          'Gemini CLI loads a project hook only in a trusted folder (trust it when gemini asks, or list it in',
          '~/.gemini/trustedFolders.json); a headless run also needs GEMINI_CLI_TRUST_WORKSPACE=true.',
        ]
      : [],
  runsThrough: ['bash', '-c'],
};
