import { join } from 'node:path';
import type { CliIO } from '../../guard.ts';
import { handlerTimeoutSeconds, planInstall, planUninstall } from '../handler.ts';
import type { HostWiring } from '../host-wiring.ts';
import { hostFolderLocations, type Scope, type ScopeLocations } from '../scope.ts';
import { eventListProblem, matcherGroupEntries } from './claude-wiring.ts';
import { checkCodexTrust } from './codex-trust.ts';
import { hookCommand } from './shell-command.ts';

// Codex CLI 0.171.0: `hooks.json` has Claude Code's shape (hooks.PreToolUse, matcher groups, a
// command handler with `timeout` in seconds), but no exec form (`args` is dropped) and a trust gate:
// a hook runs only once its hash is trusted in config.toml, which install leaves to the user.

/** Where Codex keeps its user configuration: $CODEX_HOME, else ~/.codex. */
export function codexHome(io: CliIO): string {
  const fromEnv = io.env.CODEX_HOME;
  return fromEnv !== undefined && fromEnv !== '' ? fromEnv : join(io.home, '.codex');
}

async function locateCodex(
  guard: { name: string; bundle: string },
  scope: Scope,
  io: CliIO,
): Promise<ScopeLocations> {
  const dir = scope === 'user' ? codexHome(io) : join(io.cwd, '.codex');
  return {
    ...hostFolderLocations(dir, 'hooks.json', guard, scope, io),
    // $CODEX_HOME may be a folder the user named and made: uninstall leaves it, empty or not.
    ...(scope === 'user' ? { keepSettingsFolder: true } : {}),
  };
}

const codexMatcher = '^Bash$';

/** Codex CLI: a shell-form handler under hooks.PreToolUse of `$CODEX_HOME/hooks.json` or `.codex/hooks.json`. */
export const codexWiring: HostWiring = {
  host: 'codex',
  title: 'Codex CLI',
  scopes: ['user', 'project'],
  unsupported: (guard) =>
    guard.matcher === 'Bash'
      ? null
      : `Codex CLI has no ${guard.matcher} tool (its model reads files with the shell), so ${guard.name} would never run there`,
  strictUnsupported:
    'Codex CLI lets a call through whenever a hook fails, crashes or times out, and has no setting that blocks instead',
  locate: locateCodex,
  shapeProblem: (document) => eventListProblem(document, 'PreToolUse'),
  planInstall: (document, guard, bundlePath) =>
    planInstall(
      document,
      { name: guard.name, matcher: codexMatcher },
      { type: 'command', command: hookCommand(bundlePath, 'codex', false), timeout: handlerTimeoutSeconds },
    ),
  planUninstall: (document, guardName) => planUninstall(document, guardName),
  findOwn: (document, guardName) => matcherGroupEntries(document, guardName, 'PreToolUse', 1000),
  afterInstall: (scope) => [
    'Codex CLI runs a hook only once you trust it, and skips it silently until then: review it with /hooks in',
    'an interactive codex session (or start `codex exec` with --dangerously-bypass-hook-trust).',
    ...(scope === 'project'
      ? ['A project hook also needs the project trusted (`trust_level = "trusted"` for it in config.toml).']
      : []),
    '`doctor --host codex` asks codex whether it trusts the hook.',
  ],
  runsThrough: ['/bin/bash', '-c'],
  hostChecks: checkCodexTrust,
};
