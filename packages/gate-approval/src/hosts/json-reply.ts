import { type HookOutput, isJsonObject } from '@kit/fail-open';
import type { Verdict } from '../verdict.ts';

/**
 * A verdict for a host that blocks on one JSON object on stdout at exit 0 (Codex, Gemini CLI,
 * Copilot CLI). deny and refuse are both written as `block(reason)`: each of these hosts has one
 * way to block a call with a reason the model reads, and exit 2 is read differently by each (Copilot
 * drops its stderr, Codex fails open when stderr is empty). none and cannotJudge print nothing.
 * Throws a TypeError on a value that is not a Verdict, or a deny/refuse without a non-empty reason
 * (runHook turns that into no opinion).
 */
export function encodeJsonBlock(
  verdict: Verdict,
  host: string,
  block: (reason: string) => Record<string, unknown>,
): HookOutput<Verdict['kind']> {
  switch (verdict?.kind) {
    case 'none':
      return { stdout: '', stderr: '', exitCode: 0, verdict: 'none' };
    case 'cannotJudge':
      return { stdout: '', stderr: '', exitCode: 0, verdict: 'cannotJudge', cause: String(verdict.cause) };
    case 'deny':
    case 'refuse':
      return {
        stdout: `${JSON.stringify(block(requireReason(verdict, host)))}\n`,
        stderr: '',
        exitCode: 0,
        verdict: verdict.kind,
      };
    default:
      throw new TypeError(
        `${host}.encode: expected a Verdict ({ kind: 'none' | 'deny' | 'refuse' | 'cannotJudge' }), got ${describe(verdict)}`,
      );
  }
}

function requireReason(verdict: { kind: string; reason: unknown }, host: string): string {
  if (typeof verdict.reason === 'string' && verdict.reason.trim() !== '') return verdict.reason;
  throw new TypeError(
    `${host}.encode: a ${verdict.kind} needs a non-empty string reason, got ${describe(verdict.reason)}`,
  );
}

function describe(value: unknown): string {
  try {
    return `${JSON.stringify(value) ?? String(value)} (${typeof value})`;
  } catch {
    return typeof value;
  }
}

/** The one JSON object a hook printed on stdout, or null when stdout is anything else. */
export function parseReply(stdout: string): Record<string, unknown> | null {
  try {
    const reply: unknown = JSON.parse(stdout);
    return isJsonObject(reply) ? reply : null;
  } catch {
    return null;
  }
}
