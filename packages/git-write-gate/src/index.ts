/** Decides one PreToolUse payload: a deny for a judged write, a refusal (strict) or no opinion. */
export { evaluate } from './evaluate.ts';
/** What evaluate may learn about the world: env, raw stdin text and the file-system probes; a directory probe's answer. */
export type { DirectoryOutcome, GuardContext } from './context.ts';
/** The real probes (fs, no subprocess) over a hook runtime's env and raw stdin. */
export { realContext } from './context.ts';
/** The strict-mode policy for payloads the hook could not read: runHook's onFailOpen. */
export { onFailOpen } from './strict-policy.ts';
/** What parseGitGlobals returns, and a head word (null for an expansion). */
export type { GitGlobals, HeadWord } from './git-global-options.ts';
/** git's global options, skipped exactly as git skips them. */
export { parseGitGlobals } from './git-global-options.ts';
/** The cheap reject: true when a text can spell git, or gh … merge, once quotes and backslashes are removed. */
export { isGitLooking } from './git-looking.ts';
/** A managed repository as the probe found it. */
export type { ManagedRepository } from './probe.ts';
/** The evidence probe, and where the profile lives in a work tree. */
export { probeRepository, profileRelativePath } from './probe.ts';
/** What a profile says to the gate. */
export type { RepoProfile } from './profile.ts';
/** The gate's block of a repo-profile front matter, and the profile that declares nothing. */
export { defaultProfile, parseProfile } from './profile.ts';
/** The reason opener and the guard's name. */
export { guardName } from './reasons.ts';
/** A head's judgement, the kinds of write, and where a head's pathspecs resolve. */
export type { HeadPlace } from './write-class.ts';
export type { HeadJudgement, WriteKind } from './write-kind.ts';
/** Where git resolves a pathspec: its directory and work-tree top. */
export type { PathspecBase } from './pathspec.ts';
/** The write class as a pure function over a command's head words. */
export { judgeHead } from './write-class.ts';
export { writeKinds } from './write-kind.ts';
