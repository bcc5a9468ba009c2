import type { HookProtocol, Outcome } from '@kit/fail-open';
import { parseArgs, usage } from '../cli/args.ts';
import { isMonitored, monitorProtocol, withoutMonitorFlag } from '../monitor.ts';
import { isStrictArg, withoutStrictFlag } from '../strict-arg.ts';
import type { Verdict } from '../verdict.ts';
import type { HookInput } from './claude-code.ts';
import { type HostName, hostAdapters, hostNames, isHostName } from './host-adapter.ts';

/** The flag that names the host, in the installed hook command and on the CLI. */
export const hostOption = '--host';

/** The host `--host NAME` (or `--host=NAME`) names in `argv`; `claude` when it is not given. */
export function hostFromArgs(argv: readonly string[]): Outcome<HostName, 'usage'> {
  const parsed = parseArgs([...argv], { flags: [], options: [hostOption] });
  if (!parsed.ok) return parsed;
  if (parsed.value.positionals.length > 0) return usage(`unexpected argument ${parsed.value.positionals[0]}`);
  return hostOfOption(parsed.value.options.get(hostOption));
}

/** The host a `--host` option's value names (`claude` when absent), or why it names none. */
export function hostOfOption(value: string | undefined): Outcome<HostName, 'usage'> {
  if (value === undefined) return { ok: true, value: 'claude' };
  if (isHostName(value)) return { ok: true, value };
  return usage(`unknown host ${JSON.stringify(value)}; choose one of ${hostNames.join(', ')}`);
}

/**
 * The protocol a hook bundle speaks, from its own arguments (`process.argv.slice(2)`): the one the
 * installed command names with `--host`, Claude Code's when it names none (every install before
 * hosts existed). Arguments it cannot read (an unknown host, a missing value, anything else) give a
 * protocol that reads nothing and never writes anything: with the host unknown, no dialect is safe
 * to answer in, so every call is no opinion. `--monitor` among them: the same protocol, silenced
 * (monitor.ts). `--strict` is the guard's to read (strict-arg.ts): the protocol is the same.
 */
export function protocolFromArgs(argv: readonly string[]): HookProtocol<HookInput, Verdict, Verdict['kind']> {
  // The would-deny is recorded by guardHook (audited-hook.ts), which sees the call's command.
  if (isMonitored(argv)) return monitorProtocol(protocolFromArgs(withoutMonitorFlag(argv)), () => {});
  if (isStrictArg(argv)) return protocolFromArgs(withoutStrictFlag(argv));
  const host = hostFromArgs(argv);
  return host.ok ? hostAdapters[host.value].protocol : silentProtocol;
}

const silentProtocol: HookProtocol<HookInput, Verdict, Verdict['kind']> = {
  readInput: () => ({}),
  toolOf: () => null,
  encode: () => ({ stdout: '', stderr: '', exitCode: 0, verdict: 'cannotJudge', cause: 'unknown-host' }),
};
