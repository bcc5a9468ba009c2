import type { HookOutput } from '@kit/fail-open';
import type { Verdict } from './verdict.ts';

/**
 * A verdict in the host's PreToolUse protocol. deny: the hookSpecificOutput JSON on stdout, exit 0;
 * refuse: the reason on stderr, exit 2; none and cannotJudge: nothing, exit 0. Never `ask`, never
 * `allow`. Throws a TypeError on a value that is not a Verdict (runHook turns that into no opinion).
 */
export function encodeVerdict(verdict: Verdict): HookOutput {
  switch (verdict?.kind) {
    case 'none':
      return { stdout: '', stderr: '', exitCode: 0, verdict: 'none' };
    case 'cannotJudge':
      return { stdout: '', stderr: '', exitCode: 0, verdict: 'cannotJudge', cause: String(verdict.cause) };
    case 'deny': {
      const reason = requireReason(verdict);
      const decision = {
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'deny',
          permissionDecisionReason: reason,
        },
      };
      return { stdout: `${JSON.stringify(decision)}\n`, stderr: '', exitCode: 0, verdict: 'deny' };
    }
    case 'refuse':
      return { stdout: '', stderr: `${requireReason(verdict)}\n`, exitCode: 2, verdict: 'refuse' };
    default:
      throw new TypeError(
        `encodeVerdict: expected a Verdict ({ kind: 'none' | 'deny' | 'refuse' | 'cannotJudge' }), got ${describe(verdict)}`,
      );
  }
}

function requireReason(verdict: { kind: string; reason: unknown }): string {
  if (typeof verdict.reason === 'string' && verdict.reason.trim() !== '') return verdict.reason;
  throw new TypeError(
    `encodeVerdict: a ${verdict.kind} needs a non-empty string reason, got ${describe(verdict.reason)}`,
  );
}

function describe(value: unknown): string {
  try {
    return `${JSON.stringify(value) ?? String(value)} (${typeof value})`;
  } catch {
    return typeof value;
  }
}
