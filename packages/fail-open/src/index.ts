/** Runs one hook call: bounded stdin, parse, the protocol's reading, evaluate, encoded output; every failure is no opinion. */
export { runHook } from './run-hook.ts';
/** A protocol's output, fail-open causes, the runtime handed to evaluate, a host protocol, and runHook's options. */
export type {
  Evaluate,
  FailCause,
  HookOutput,
  HookProtocol,
  HookRuntime,
  RunHookOptions,
} from './runtime-types.ts';
/** Named trace fields, what one holds, and how several sources merge into a trace line. */
export type { TraceFields, TraceValue } from './trace.ts';
/** Merges named trace fields (later wins), leaving out reserved names and values that are not TraceValues. */
export { mergeTraceFields, reservedTraceNames } from './trace.ts';
/** A parsed JSON object. */
export type { JsonObject } from './json.ts';
/** True for a plain JSON object (not an array, not null). */
export { isJsonObject } from './json.ts';
/** The value, or why not: `{ ok: true, value } | { ok: false, reason, message }`. */
export type { Outcome } from './outcome.ts';
/** Why readTextFile has no text: absent or unreadable. */
export type { TextFileProblem } from './read-text-file.ts';
/** A file's text, or why not (absent, unreadable); never throws. */
export { readTextFile } from './read-text-file.ts';
/** The full path of an executable on PATH (PATHEXT on win32), with no subprocess. */
export { onPath } from './on-path.ts';
/** The OS temp folder as the env names it (TMPDIR; TEMP or TMP on Windows), else os.tmpdir(), loaded on demand. */
export { tempFolderOf } from './temp-dir.ts';
/** True when the verdict server of a mailbox answers a ping request with the bundle's key in time (doctor). */
export { pingVerdictServer } from './verdict-server.ts';
/** The one "a folder of the user's own" check (a real folder, the user's, none of the given mode bits), and its two modes. */
export { closedToOthers, type FolderProblem, folderProblem, unwritableByOthers } from './own-folder.ts';
/** True while a process runs (a zombie counts as ended): the kit's one idea of "alive", for a server's or a judge's pid. */
export { processRuns } from './process-runs.ts';
/** The values that turn a kit switch off, and the test of one. */
export { switchedOff, switchOffValues } from './switch-values.ts';
/** The argument that makes a hook bundle print its verdict server's state as one JSON line (doctor runs it). */
export { serverStatusArgument } from './bundle-loader.ts';
