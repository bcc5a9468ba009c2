// What a user of the gate needs: decide a call, on the real file system or a context of one's own,
// and the names the gate answers with. The escape store, the marker search and the deny text's
// parts are the gate's own (issue 22: the index published 29 names, escape-store internals included).

/** Decides one PreToolUse call: deny a Read of C# source where roseline can answer, else no opinion. */
export { evaluate, launcherName, ruleId, switchName } from './evaluate.ts';
/** What evaluate may know of the world: env, cwd, clock, temp folder and the file-system probes. */
export type { FileSystemContextOptions, GuardContext } from './context.ts';
/** A context on the real file system with an explicit env, cwd, temp folder and clock. */
export { fileSystemContext } from './context.ts';
/** True for a C# source path (`.cs` in any case, either separator). */
export { isCSharpSource } from './csharp-path.ts';
/** The guard's name: the opener of every denial. */
export { guardName } from './reasons.ts';
