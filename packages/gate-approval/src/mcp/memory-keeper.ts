import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** After this long with no call, the judge collects garbage once: a session's calls come seconds apart. */
export const idleMs = 1000;
/** And after this many calls in a row with no pause (a burst of sub-agents): a flat footprint either way. */
export const callsPerCollection = 500;

/**
 * Keeps a long-lived judge's resident memory flat. V8 collects lazily and grows its heap while
 * memory is free, which over a session reads as a leak; a full collection while the session is
 * idle costs a few milliseconds that no call waits for. Returns the hook to call after each call
 * (before its answer is written: a burst's collection waits for the next turn, after the write).
 */
export function memoryKeeper(collect: (() => void) | null = fullCollection()): () => void {
  if (collect === null) return () => undefined;
  let timer: NodeJS.Timeout | undefined;
  let calls = 0;
  return () => {
    calls++;
    if (timer !== undefined) clearTimeout(timer);
    if (calls % callsPerCollection === 0) setImmediate(collect);
    timer = setTimeout(collect, idleMs);
    timer.unref();
  };
}

// `gc` without `--expose-gc` on the command line: the flag turned on, then the function taken from
// a fresh context, which is where V8 installs it.
function fullCollection(): (() => void) | null {
  try {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as unknown;
    return typeof gc === 'function' ? () => (gc as () => void)() : null;
  } catch {
    return null;
  }
}
