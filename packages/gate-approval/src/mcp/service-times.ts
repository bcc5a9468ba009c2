import { appendFileSync } from 'node:fs';
import type { OnAnswered } from './json-rpc-lines.ts';

/** The bench's switch: a file the judge appends each tools/call's service time to. Unset, nothing is recorded. */
export const serviceTimesVariable = 'KIT_JUDGE_SERVICE_TIMES';

/**
 * The judge's own work per call, as the host bench separates it from the host's: one JSON line
 * `{"ms":0.42}` per tools/call, from its request line read to its answer written, appended to the
 * file KIT_JUDGE_SERVICE_TIMES names. Written after the answer, so no call waits for it; a file
 * that cannot be written is ignored.
 */
export function serviceTimes(env: Record<string, string | undefined>): OnAnswered | undefined {
  const file = env[serviceTimesVariable];
  if (!file) return undefined;
  return (method, ms) => {
    if (method !== 'tools/call') return;
    try {
      appendFileSync(file, `${JSON.stringify({ ms: Math.round(ms * 1000) / 1000 })}\n`);
    } catch {
      // a bench record, never the judge's answer
    }
  };
}
