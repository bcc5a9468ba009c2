import { isJsonObject, toHookInput } from './input.ts';
import { readBoundedText } from './read-stdin.ts';
import type { Evaluate, FailCause, HookOutput, HookRuntime, RunHookOptions } from './runtime-types.ts';
import { appendTrace } from './trace.ts';
import { writeOutput } from './write-output.ts';

const defaultMaxStdinBytes = 4 * 1024 * 1024;
const defaultBudgetMs = 3000;
// After an overrun the guard may have left timers or sockets open; once the (empty) output is
// flushed, this long is left for a natural exit before the process is ended on purpose.
const overrunGraceMs = 25;

/** The decision before encoding: a verdict the guard returned, or why there is none. */
type Decision<V> = { verdict: V } | { cause: FailCause };

/**
 * Runs one hook call: reads the payload from stdin (bounded in size and time), calls `evaluate`,
 * and writes the encoded verdict. Every failure is no opinion (exit 0, nothing written) unless
 * `onFailOpen` returns a verdict. Sets `process.exitCode` (when writing to the real process
 * streams) and never calls `process.exit()` before the output is flushed. Never rejects.
 */
export async function runHook<V>(evaluate: Evaluate<V>, options: RunHookOptions<V>): Promise<HookOutput> {
  const startedAt = Date.now();
  // process.hrtime, not performance.now(): the `performance` global loads perf_hooks (~1 ms).
  const startedTick = process.hrtime.bigint();
  const ownsProcess = options.stdout === undefined;
  const env = options.env ?? process.env;
  const runtime: HookRuntime = {
    env,
    raw: '',
    guard: options.guard,
    deadline: startedAt + (options.budgetMs ?? defaultBudgetMs),
  };
  let tool: string | null = null;
  let output: HookOutput = noOpinion('encode-failed');
  let cause: FailCause | undefined;

  try {
    const decision = await decide(evaluate, options, runtime, (name) => {
      tool = name;
    });
    if ('cause' in decision) {
      cause = decision.cause;
      output = failOpen(decision.cause, options, runtime);
    } else {
      const encoded = encodeSafely(options.encode, decision.verdict);
      if (encoded === null) cause = 'encode-failed';
      output = encoded ?? failOpen('encode-failed', options, runtime);
    }
  } catch {
    // decide() catches everything it calls; this is the last net under the runtime itself.
    output = noOpinion('threw');
  }

  await writeOutput(options.stdout, 1, output.stdout);
  await writeOutput(options.stderr, 2, output.stderr);
  if (ownsProcess) process.exitCode = output.exitCode;

  const traceFile = env.KIT_HOOKS_TRACE;
  if (traceFile) {
    const recordedCause = output.cause ?? cause;
    appendTrace(traceFile, {
      time: new Date(startedAt).toISOString(),
      guard: options.guard,
      tool,
      verdict: output.verdict,
      ...(recordedCause === undefined ? {} : { cause: recordedCause }),
      ms: Math.round(Number(process.hrtime.bigint() - startedTick) / 1e5) / 10,
    });
  }

  if (ownsProcess && cause === 'budget-exceeded') {
    // The output is flushed; a hung evaluate may still hold the event loop open.
    const exitCode = output.exitCode;
    setTimeout(() => process.exit(exitCode), overrunGraceMs).unref();
  }
  return output;
}

async function decide<V>(
  evaluate: Evaluate<V>,
  options: RunHookOptions<V>,
  runtime: HookRuntime,
  noteTool: (name: string | null) => void,
): Promise<Decision<V>> {
  const stdin = await readBoundedText(
    options.stdin ?? process.stdin,
    options.maxStdinBytes ?? defaultMaxStdinBytes,
    runtime.deadline,
  );
  runtime.raw = stdin.text;
  if (!stdin.ok) return { cause: stdin.cause };

  let parsed: unknown;
  try {
    parsed = JSON.parse(stdin.text);
  } catch {
    return { cause: 'invalid-json' };
  }
  if (!isJsonObject(parsed)) return { cause: 'not-an-object' };
  const input = toHookInput(parsed);
  noteTool(input.tool_name ?? null);

  let returned: V | Promise<V>;
  try {
    returned = evaluate(input, runtime);
  } catch {
    return { cause: 'threw' };
  }
  if (!isThenable(returned)) {
    return Date.now() > runtime.deadline ? { cause: 'budget-exceeded' } : { verdict: returned };
  }
  return settleBeforeDeadline(returned, runtime.deadline);
}

function settleBeforeDeadline<V>(pending: PromiseLike<V>, deadline: number): Promise<Decision<V>> {
  return new Promise((resolve) => {
    // Ref'd on purpose: an evaluate that waits on nothing would otherwise let the process end
    // with no trace line (and, under a top-level await, exit 13). Cleared as soon as it settles.
    const timer = setTimeout(() => resolve({ cause: 'budget-exceeded' }), Math.max(0, deadline - Date.now()));
    pending.then(
      (verdict) => {
        clearTimeout(timer);
        resolve(Date.now() > deadline ? { cause: 'budget-exceeded' } : { verdict });
      },
      () => {
        clearTimeout(timer);
        resolve({ cause: 'rejected' });
      },
    );
  });
}

function failOpen<V>(cause: FailCause, options: RunHookOptions<V>, runtime: HookRuntime): HookOutput {
  if (!options.onFailOpen) return noOpinion(cause);
  let verdict: V | undefined;
  try {
    verdict = options.onFailOpen(cause, runtime);
  } catch {
    return noOpinion(cause);
  }
  if (verdict === undefined) return noOpinion(cause);
  const encoded = encodeSafely(options.encode, verdict);
  return encoded ? { ...encoded, cause: encoded.cause ?? cause } : noOpinion(cause);
}

function encodeSafely<V>(encode: (verdict: V) => HookOutput, verdict: V): HookOutput | null {
  try {
    const output: unknown = encode(verdict);
    return isHookOutput(output) ? output : null;
  } catch {
    return null;
  }
}

function isHookOutput(value: unknown): value is HookOutput {
  if (!isJsonObject(value)) return false;
  return (
    typeof value.stdout === 'string' &&
    typeof value.stderr === 'string' &&
    (value.exitCode === 0 || value.exitCode === 2) &&
    typeof value.verdict === 'string' &&
    (value.cause === undefined || typeof value.cause === 'string')
  );
}

function isThenable<V>(value: V | Promise<V>): value is Promise<V> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

function noOpinion(cause: FailCause): HookOutput {
  return { stdout: '', stderr: '', exitCode: 0, verdict: 'none', cause };
}
