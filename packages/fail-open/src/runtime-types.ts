import type { HookInput } from './input.ts';

/** What one hook call writes, decided by the guard's encoder (gate-approval's `encodeVerdict`). */
export interface HookOutput {
  stdout: string;
  stderr: string;
  exitCode: 0 | 2; // 0: no opinion or a deny on stdout; 2: a refusal on stderr
  verdict: string; // 'none' | 'deny' | 'refuse' | 'cannotJudge': for the trace
  cause?: string; // why there is no opinion, when there is a reason to record
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
  deadline: number; // Date.now() value past which the answer is no opinion
}

/** The guard's decision function, as runHook calls it. */
export type Evaluate<V> = (input: HookInput, runtime: HookRuntime) => V | Promise<V>;

/** Options of `runHook`. */
export interface RunHookOptions<V> {
  /** The guard's name ('exit-status-guard'): used in trace lines and nothing else. */
  guard: string;
  /** Turns a verdict into what the process writes (gate-approval's `encodeVerdict`). */
  encode: (verdict: V) => HookOutput;
  /** Largest stdin accepted, in bytes. Default 4 MiB. */
  maxStdinBytes?: number;
  /** Time for reading stdin and evaluating together, in ms. Default 3000 (the host kills at 5 s). */
  budgetMs?: number;
  /**
   * Called on every fail-open path with the cause; a strict guard may return a verdict (a refusal).
   * Default: no opinion. A throw from it is no opinion too.
   */
  onFailOpen?: (cause: FailCause, runtime: HookRuntime) => V | undefined;
  stdin?: NodeJS.ReadableStream; // for tests; default process.stdin
  stdout?: NodeJS.WritableStream; // for tests; default process.stdout
  stderr?: NodeJS.WritableStream; // for tests; default process.stderr
  env?: Record<string, string | undefined>; // default process.env
}
