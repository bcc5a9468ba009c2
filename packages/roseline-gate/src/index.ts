/** Decides one PreToolUse call: deny a Read of C# source where roseline can answer, else no opinion. */
export { evaluate, launcherName, ruleId, switchName } from './evaluate.ts';
/** What evaluate may know of the world: env, cwd, clock, temp folder and the file-system probes. */
export type { FileSystemContextOptions, GuardContext } from './context.ts';
/** Contexts on the real file system: one with explicit env/cwd/temp folder, and the hook's own. */
export { fileSystemContext, realContext } from './context.ts';
/** What a path names on disk: the `pathKind` probe's answer. */
export type { PathKind } from './csharp-path.ts';
/** True for a C# source path (`.cs` in any case, either separator). */
export { isCSharpSource } from './csharp-path.ts';
/** The escape store's probes and outcome, and the fields that make two Reads identical. */
export type { EscapeOutcome, MarkerRead, MarkerStore, ReadIdentity } from './escape.ts';
/** The one-shot escape: a Read's key, where a denial's marker lives, and the consume-or-arm step. */
export {
  escapeMarkerPath,
  escapeQuietMs,
  escapeWindowMs,
  readIdentity,
  sessionMarkerFolder,
  takeOrArmEscape,
} from './escape.ts';
/** The marker search's probe, outcome and bounds. */
export type { FolderEntry, ListFolder, MarkerSearch, MarkerSearchLimits } from './project-marker.ts';
/** The bounded project marker search: `.csproj`, then `.sln`, walking up; then below the cwd. */
export { defaultMarkerSearchLimits, findProjectMarker, markerIn } from './project-marker.ts';
/** The denial text (without the opener) and the guard's name. */
export { buildDenyText, guardName } from './reasons.ts';
