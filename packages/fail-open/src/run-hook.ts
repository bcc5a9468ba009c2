import { Writable } from 'node:stream';
import { callTimeOfProcess } from './bundle-loader.ts';
import { takeFrontHandoff } from './front-handoff.ts';
import { isJsonObject } from './json.ts';
import { readBoundedText, type StdinOutcome } from './read-stdin.ts';
import type { Evaluate, FailCause, HookOutput, HookRuntime, RunHookOptions } from './runtime-types.ts';
import { appendTrace, mergeTraceFields, type TraceFields } from './trace.ts';
import { type ServerRequest, serveVerdicts } from './verdict-server.ts';
import { writeOutput } from './write-output.ts';

const defaultMaxStdinBytes = 4 * 1024 * 1024;
const defaultBudgetMs = 3000;
// After an overrun the guard may have left timers or sockets open; once the (empty) output is
// flushed, this long is left for a natural exit before the process is ended on purpose.
const overrunGraceMs = 25;

/** The decision before encoding: a verdict the guard returned, or why there is none. */
type Decision<V> = { ok: true; value: V } | { ok: false; reason: FailCause };

/**
 * Runs one hook call: reads the payload from stdin (bounded in size and time), parses it, lets the
 * protocol read it, calls `evaluate`, and writes what the protocol encodes of the verdict. Every
 * failure is no opinion (exit 0, nothing written) unless `onFailOpen` returns a verdict. Sets
 * `process.exitCode` (when writing to the real process streams) and never calls `process.exit()`
 * before the output is flushed. Never rejects.
 *
 * In a bundle built with a verdict server (hookBundle's `verdictServer`), the bundle's front has
 * read stdin already and hands it over; in the process the front started as the server, runHook
 * serves calls with this same evaluate and these options until the server's quiet period ends.
 */
export async function runHook<I, V, L extends string>(
  // NoInfer: the protocol alone says what a verdict is, so a literal verdict keeps its literal kind.
  evaluate: Evaluate<I, NoInfer<V>>,
  options: RunHookOptions<I, V, L>,
): Promise<HookOutput<L>> {
  if (options.stdin === undefined && options.stdinRead === undefined) {
    const handoff = takeFrontHandoff();
    if (handoff?.mode === 'foreign') return noOpinion('served'); // no server of another version's front
    if (handoff?.mode === 'serve') {
      await serveVerdicts(
        handoff,
        (request) => runHook(evaluate, servedCall(options, request)),
        options.warmUp,
      );
      return noOpinion('served');
    }
    if (handoff?.mode === 'call') {
      const { stdin, fields, calledAt } = handoff;
      return runHook(evaluate, { ...options, stdinRead: stdin, traceFields: fields, calledAt });
    }
  }
  const startedAt = Date.now();
  // process.hrtime, not performance.now(): the `performance` global loads perf_hooks (~1 ms).
  const startedTick = process.hrtime.bigint();
  const ownsProcess = options.stdout === undefined;
  const env = options.env ?? process.env;
  const notes: TraceFields[] = [];
  const ownStdin = options.stdin === undefined && options.stdinRead === undefined;
  const runtime: HookRuntime = {
    env,
    raw: '',
    guard: options.guard,
    deadline: startedAt + (options.budgetMs ?? defaultBudgetMs),
    calledAt: options.calledAt ?? (ownStdin ? callTimeOfProcess() : startedAt),
    note: (fields) => {
      notes.push(fields);
    },
  };
  let tool: string | null = null;
  let output: HookOutput<L> = noOpinion('encode-failed');
  let cause: FailCause | undefined;

  try {
    const decision = await decide(evaluate, options, runtime, (name) => {
      tool = name;
    });
    if (!decision.ok) {
      cause = decision.reason;
      output = failOpen(decision.reason, options, runtime);
    } else {
      const encoded = encodeSafely(options.protocol.encode, decision.value);
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
      ...mergeTraceFields([options.traceFields, ...notes, output.fields]),
    });
  }

  if (ownsProcess && cause === 'budget-exceeded') {
    // The output is flushed; a hung evaluate may still hold the event loop open.
    const exitCode = output.exitCode;
    setTimeout(() => process.exit(exitCode), overrunGraceMs).unref();
  }
  return output;
}

async function decide<I, V, L extends string>(
  evaluate: Evaluate<I, V>,
  options: RunHookOptions<I, V, L>,
  runtime: HookRuntime,
  noteTool: (name: string | null) => void,
): Promise<Decision<V>> {
  const maxBytes = options.maxStdinBytes ?? defaultMaxStdinBytes;
  const stdin = options.stdinRead
    ? withinSize(options.stdinRead, maxBytes)
    : await readBoundedText(options.stdin ?? process.stdin, maxBytes, runtime.deadline);
  runtime.raw = stdin.ok ? stdin.value : stdin.partial;
  if (!stdin.ok) return { ok: false, reason: stdin.reason };

  let parsed: unknown;
  try {
    parsed = JSON.parse(stdin.value);
  } catch {
    return { ok: false, reason: 'invalid-json' };
  }
  if (!isJsonObject(parsed)) return { ok: false, reason: 'not-an-object' };

  let returned: V | Promise<V>;
  try {
    const input = options.protocol.readInput(parsed);
    noteTool(options.protocol.toolOf(input));
    returned = evaluate(input, runtime);
  } catch {
    return { ok: false, reason: 'threw' };
  }
  // A verdict evaluate returned is the answer, however long it took: the host's own timeout (5 s)
  // is the only clock that can make it too late, and a hook still running has not reached it. The
  // budget bounds only what may never end: stdin, and a promise that has not settled.
  if (!isThenable(returned)) return { ok: true, value: returned };
  return settleBeforeDeadline(returned, runtime.deadline);
}

// Stdin read by someone else (the bundle's front, a server's caller) still meets this call's size bound.
function withinSize(stdin: StdinOutcome, maxBytes: number): StdinOutcome {
  if (!stdin.ok || Buffer.byteLength(stdin.value, 'utf8') <= maxBytes) return stdin;
  const bytes = Buffer.from(stdin.value, 'utf8');
  const partial = bytes.subarray(0, maxBytes).toString('utf8');
  return { ok: false, reason: 'stdin-too-large', message: `more than ${maxBytes} bytes`, partial };
}

// One call a verdict server answers: the caller's payload and environment, its output captured.
function servedCall<I, V, L extends string>(
  options: RunHookOptions<I, V, L>,
  request: ServerRequest,
): RunHookOptions<I, V, L> {
  return {
    ...options,
    stdinRead: { ok: true, value: request.stdin },
    env: request.env,
    calledAt: request.calledAt,
    stdout: discard(),
    stderr: discard(),
    traceFields: { path: 'server' },
  };
}

function discard(): NodeJS.WritableStream {
  return new Writable({ write: (_chunk, _encoding, done) => done() });
}

function settleBeforeDeadline<V>(pending: PromiseLike<V>, deadline: number): Promise<Decision<V>> {
  return new Promise((resolve) => {
    // Ref'd on purpose: an evaluate that waits on nothing would otherwise let the process end
    // with no trace line (and, under a top-level await, exit 13). Cleared as soon as it settles.
    // Whichever comes first wins: a promise that settles before the timer runs (a synchronous
    // stretch that outlasted the budget, then an already-settled promise) is a computed verdict.
    const timer = setTimeout(
      () => resolve({ ok: false, reason: 'budget-exceeded' }),
      Math.max(0, deadline - Date.now()),
    );
    pending.then(
      (verdict) => {
        clearTimeout(timer);
        resolve({ ok: true, value: verdict });
      },
      () => {
        clearTimeout(timer);
        resolve({ ok: false, reason: 'rejected' });
      },
    );
  });
}

function failOpen<I, V, L extends string>(
  cause: FailCause,
  options: RunHookOptions<I, V, L>,
  runtime: HookRuntime,
): HookOutput<L> {
  if (!options.onFailOpen) return noOpinion(cause);
  let verdict: V | undefined;
  try {
    verdict = options.onFailOpen(cause, runtime);
  } catch {
    return noOpinion(cause);
  }
  if (verdict === undefined) return noOpinion(cause);
  const encoded = encodeSafely(options.protocol.encode, verdict);
  return encoded ? { ...encoded, cause: encoded.cause ?? cause } : noOpinion(cause);
}

function encodeSafely<V, L extends string>(
  encode: (verdict: V) => HookOutput<L>,
  verdict: V,
): HookOutput<L> | null {
  try {
    const output: unknown = encode(verdict);
    return isHookOutput<L>(output) ? output : null;
  } catch {
    return null;
  }
}

// The label itself cannot be checked here: the runtime does not know the protocol's verdicts.
function isHookOutput<L extends string>(value: unknown): value is HookOutput<L> {
  if (!isJsonObject(value)) return false;
  return (
    typeof value.stdout === 'string' &&
    typeof value.stderr === 'string' &&
    (value.exitCode === 0 || value.exitCode === 2) &&
    typeof value.verdict === 'string' &&
    (value.cause === undefined || typeof value.cause === 'string') &&
    (value.fields === undefined || isJsonObject(value.fields))
  );
}

function isThenable<V>(value: V | Promise<V>): value is Promise<V> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

function noOpinion(cause: FailCause | 'served'): HookOutput<never> {
  return { stdout: '', stderr: '', exitCode: 0, verdict: 'none', cause };
}
