import type { Outcome } from '@kit/fail-open';
import type { GuardDefinition } from '../guard.ts';
import { hostOfOption } from '../hosts/host-argument.ts';
import { usage } from './args.ts';
import type { HostWiring } from './host-wiring.ts';
import { hostWirings } from './host-wirings.ts';
import type { Scope } from './scope.ts';

/**
 * The wiring `--host` names (Claude Code's without it), checked against the scope (when one is
 * given) and, unless `checkTool` is false (uninstall removes whatever is there), the guard's tool.
 */
export function chooseHost(
  option: string | undefined,
  scope: Scope | undefined,
  guard: Pick<GuardDefinition, 'name' | 'matcher'>,
  checkTool = true,
): Outcome<HostWiring, 'usage'> {
  const host = hostOfOption(option);
  if (!host.ok) return host;
  const wiring = hostWirings[host.value];
  if (scope !== undefined && !wiring.scopes.includes(scope))
    return usage(
      `${wiring.title} has no ${scope} scope; choose ${wiring.scopes.map((s) => `--${s}`).join(' or ')}`,
    );
  const unsupported = checkTool ? wiring.unsupported(guard) : null;
  return unsupported === null ? { ok: true, value: wiring } : usage(unsupported);
}

/** `user scope` for Claude Code, `codex, user scope` for another host: how messages name where they acted. */
export function hostScopeLabel(wiring: HostWiring, scope: Scope): string {
  return wiring.host === 'claude' ? `${scope} scope` : `${wiring.host}, ${scope} scope`;
}
