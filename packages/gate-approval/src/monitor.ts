import type { HookOutput, HookProtocol } from '@kit/fail-open';
import { appendAudit, auditFile, guardOfReason } from './audit-log.ts';
import type { HookInput } from './hosts/claude-code.ts';
import type { Verdict } from './verdict.ts';

/**
 * Monitor mode: the guard judges every call exactly as it would, and the host is told nothing.
 * The flag sits in the handler's own arguments (`node <bundle> --monitor`), so a verdict server,
 * whose key holds the call's arguments, never answers a monitored call with an enforcing one.
 */
export const monitorFlag = '--monitor';

/** True when the bundle's arguments ask for monitor mode. */
export function isMonitored(argv: readonly string[]): boolean {
  return argv.includes(monitorFlag);
}

/** The arguments without the monitor flag: what the host choice reads. */
export function withoutMonitorFlag(argv: readonly string[]): string[] {
  return argv.filter((arg) => arg !== monitorFlag);
}

/** A monitored would-deny: what the guard decided, and the output the host did not get. */
export interface WouldDeny {
  verdict: 'deny' | 'refuse';
  output: HookOutput<string>;
}

/**
 * `inner`, with every deny and refusal turned into silence: nothing on stdout or stderr, exit 0.
 * The verdict label and the trace fields stay as the guard decided them (plus `monitored: true`), so
 * the trace and the audit trail record the would-deny; `onWouldDeny` is told of each one.
 */
export function monitorProtocol<L extends string>(
  inner: HookProtocol<HookInput, Verdict, L>,
  onWouldDeny: (event: WouldDeny) => void = recordWouldDeny,
): HookProtocol<HookInput, Verdict, L> {
  return {
    readInput: inner.readInput,
    toolOf: inner.toolOf,
    encode: (verdict) => {
      const output = inner.encode(verdict);
      const label: string = output.verdict;
      if (label !== 'deny' && label !== 'refuse') return output;
      try {
        onWouldDeny({ verdict: label, output });
      } catch {
        // a record that cannot be written never reaches the host
      }
      return {
        ...output,
        stdout: '',
        stderr: '',
        exitCode: 0,
        fields: { ...(output.fields ?? {}), monitored: true },
      };
    },
  };
}

/** The default record of a would-deny: a line in the user's audit trail (audit-log.ts). */
export function recordWouldDeny(
  event: WouldDeny,
  env: Record<string, string | undefined> = process.env,
): void {
  const file = auditFile(env);
  if (file === null) return;
  const rule = event.output.fields?.rule;
  appendAudit(file, {
    time: new Date().toISOString(),
    guard: guardOfReason(event.output.stdout || event.output.stderr),
    event: event.verdict === 'deny' ? 'would-deny' : 'would-refuse',
    ...(typeof rule === 'string' ? { rule } : {}),
  });
}
