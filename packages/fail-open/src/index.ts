/** findUp's options and outcome. */
export type { FindUpOptions, FindUpOutcome } from './find-up.ts';
/** A bounded walk up the folders for a marker. */
export { findUp } from './find-up.ts';
/** The PreToolUse payload and the Bash / Read tool inputs. */
export type { BashToolInput, HookInput, ReadToolInput } from './input.ts';
/** The Bash / Read tool input of a payload, or null when the call is another tool or malformed. */
export { bashInput, readInput } from './input.ts';
/** The full path of an executable on PATH (PATHEXT on win32), with no subprocess. */
export { onPath } from './on-path.ts';
/** The OS temp folder as the env names it (TMPDIR; TEMP or TMP on Windows), else os.tmpdir(), loaded on demand. */
export { tempFolderOf } from './temp-dir.ts';
/** Runs one hook call: bounded stdin, parse, evaluate, encoded output; every failure is no opinion. */
export { runHook } from './run-hook.ts';
/** The hook's output, fail-open causes, the runtime handed to evaluate, and runHook's options. */
export type { Evaluate, FailCause, HookOutput, HookRuntime, RunHookOptions } from './runtime-types.ts';
/** What findWorkTreeTop returns. */
export type { WorkTreeTop } from './work-tree.ts';
/** The work-tree top of a folder: walk up to `.git`, following a `.git` file's `gitdir:`. */
export { findWorkTreeTop } from './work-tree.ts';
