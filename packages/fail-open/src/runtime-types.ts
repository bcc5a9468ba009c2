import type { JsonObject } from './json.ts';
import type { StdinOutcome } from './read-stdin.ts';
import type { TraceFields } from './trace.ts';

/**
 * What one hook call writes, as the protocol's encoder decided. `L` names the protocol's verdicts
 * (gate-approval's Claude Code protocol: 'none' | 'deny' | 'refuse' | 'cannotJudge').
 */
export interface HookOutput<L extends string = string> {
  stdout: string;
  stderr: string;
  exitCode: 0 | 2; // 0: no opinion or a deny on stdout; 2: a refusal on stderr
  verdict: L | 'none'; // the verdict's name in the trace; 'none' when the call failed open
  cause?: string; // why there is no opinion, when there is a reason to record
  fields?: TraceFields; // named fields for the trace line, as the protocol read them off the verdict
}

/** Why a call failed open. */
export type FailCause =
  | 'stdin-too-large'
  | 'stdin-timeout'
  | 'stdin-error'
  | 'invalid-json'
  | 'not-an-object'
  | 'threw'
  | 'rejected'
  | 'budget-exceeded'
  | 'encode-failed';

/** What the runtime hands `evaluate` beside the payload. */
export interface HookRuntime {
  env: Record<string, string | undefined>;
  raw: string; // the stdin text as read (when reading failed: the part read before the cap, the budget or the error)
  guard: string;
  deadline: number; // Date.now() value past which a verdict still pending (a promise that has not settled) is no opinion
  /**
   * When the host made the call (a Date.now() value): the bundle's front stamps it as the hook
   * process starts and hands it to whichever path answers (the verdict server, or the body in
   * process), so both judge one call by one time. runHook sets it; a runtime built by hand may not.
   */
  calledAt?: number;
  /**
   * Adds named fields to this call's trace line (later notes win; a reserved name or a value that
   * is not a TraceValue is left out). runHook and explain provide it; a runtime built by hand may not.
   */
  note?: (fields: TraceFields) => void;
}

/** The guard's decision function, as runHook calls it: the protocol's input, the runtime. */
export type Evaluate<I, V> = (input: I, runtime: HookRuntime) => V | Promise<V>;

/**
 * One host's side of a hook call: how a payload becomes the guard's input and a verdict becomes
 * what the process writes. gate-approval holds Claude Code's (`claudeCode`); the runtime knows no
 * host's field names.
 */
export interface HookProtocol<I, V, L extends string = string> {
  /** The guard's input from a payload that parsed to a JSON object. A throw is no opinion (`threw`). */
  readInput: (payload: JsonObject) => I;
  /** The tool the call is for, as the trace line names it; null when the payload names none. */
  toolOf: (input: I) => string | null;
  /** What the process writes for a verdict. A throw, or a value that is not a HookOutput, is `encode-failed`. */
  encode: (verdict: V) => HookOutput<L>;
}

/** Options of `runHook`. */
export interface RunHookOptions<I, V, L extends string = string> {
  /** The guard's name ('exit-status-guard'): used in trace lines and nothing else. */
  guard: string;
  /** The host's protocol (gate-approval's `claudeCode`). */
  protocol: HookProtocol<I, V, L>;
  /** Largest stdin accepted, in bytes. Default 4 MiB. */
  maxStdinBytes?: number;
  /**
   * Time for reading stdin and for a pending verdict to settle, in ms. Default 3000 (the host kills
   * at 5 s). A verdict evaluate has returned is never dropped for being late.
   */
  budgetMs?: number;
  /**
   * When the host made the call (a Date.now() value), for `runtime.calledAt`. Default: the process's
   * start when runHook reads the process's own stdin (a hook process is started for one call), else
   * when runHook starts. The bundle's front and the verdict server pass the time the front stamped.
   */
  calledAt?: number;
  /**
   * Called on every fail-open path with the cause; a strict guard may return a verdict (a refusal).
   * Default: no opinion. A throw from it is no opinion too.
   */
  onFailOpen?: (cause: FailCause, runtime: HookRuntime) => V | undefined;
  /**
   * Runs in a verdict server before it takes calls (the server is the bundle, started once and kept
   * warm: hookBundle's `verdictServer`): load what the first call would load, mvdan-sh's parser for
   * a Bash guard. A throw is ignored.
   */
  warmUp?: () => unknown;
  /** Stdin already read to its end, or why not (the bundle's front, a server's caller); replaces reading `stdin`. */
  stdinRead?: StdinOutcome;
  /** Named fields this call's trace line starts from (the bundle's front says which path answered). */
  traceFields?: TraceFields;
  stdin?: NodeJS.ReadableStream; // for tests; default process.stdin
  stdout?: NodeJS.WritableStream; // for tests; default process.stdout
  stderr?: NodeJS.WritableStream; // for tests; default process.stderr
  env?: Record<string, string | undefined>; // default process.env
}
