import type { Outcome } from '@kit/fail-open';
import type { LogPath } from './log-path.ts';
import type { Shell } from './shell.ts';

/** How the host runs the call: in the foreground, or as a background task (`run_in_background: true`). */
export type CallMode = 'foreground' | 'background-task';

/** One Bash call as the rules see it: the parsed command's top shell, and how the host runs it. */
export interface Call {
  top: Shell;
  mode: CallMode;
}

/** What a denying rule found: the shell it found it in and the gate the reason names, plus the rule's own fields. */
export interface Finding {
  shell: Shell;
  gateHead: string; // the head of the gate whose status is lost (the reason shows its first 70 characters)
}

/** The sentences of a reason that depend on the rule (the rest is the same for every rule). */
export interface RuleReason {
  why: string; // after the gate's name: why the status is lost; it holds the rule's phrase
  instead: string; // the line that introduces the rewrite
  fallback: string; // said in place of a rewrite when there is none
  durableFix?: string; // in place of the exempt-pattern advice, when an exempt pattern cannot help
}

/** A suggested command, or why there is none (then the reason gives the rule's fallback sentence). */
export type Rewrite = Outcome<string, 'no-rewrite'>;

/** Where a rewrite sends output, asked only by the rewrites that use a log (finding the scratchpad reads the disk). */
export type LogPathProbe = () => LogPath;

/** A rule that denies: its id, its stable phrase, how it finds a hit, its reason, its rewrite. */
export interface DenyingRule<Id extends string, F extends Finding = Finding> {
  effect: 'deny';
  id: Id; // kebab-case: the module's name, the deny's `rule`, the friction report's key
  phrase: string; // stable: the friction report counts denials by it
  find(call: Call): F | null;
  reason(found: F): RuleReason;
  rewrite(found: F, log: LogPathProbe): Rewrite;
}

/** A rule that silences the whole call when it finds its sign (the override). */
export interface SilencingRule<Id extends string> {
  effect: 'silence';
  id: Id;
  find(call: Call): boolean;
}

/** A rewrite that is not there, with the reason why (kept for tracing; the reason shows the fallback). */
export function noRewrite(message: string): Rewrite {
  return { ok: false, reason: 'no-rewrite', message };
}

/** A rewrite from a command text, or no rewrite when there is none. */
export function rewriteOf(text: string | null, message = 'no rewrite for this shape'): Rewrite {
  return text === null ? noRewrite(message) : { ok: true, value: text };
}
