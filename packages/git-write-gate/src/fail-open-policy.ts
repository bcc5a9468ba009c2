import type { FailCause, HookRuntime } from '@kit/fail-open';
import type { Verdict } from '@kit/gate-approval';
import { judgeFailedPayload } from './evaluate.ts';

/**
 * runHook's onFailOpen for this gate: on any path where the call could not be judged at all
 * (stdin unreadable, not JSON, not an object, the evaluation failed), strict mode refuses when
 * the raw stdin text is git-looking; otherwise, and by default, no opinion.
 */
export function onFailOpen(cause: FailCause, runtime: HookRuntime): Verdict | undefined {
  return judgeFailedPayload(runtime.raw, runtime.env, cause);
}
