import type { FailCause, HookRuntime, TraceFields } from '@kit/fail-open';
import { cannotJudge, isStrict, none, readSwitch, refuse, type Verdict } from '@kit/gate-approval';
import { startsWithEscape, switchName } from './escape.ts';
import { isRawTextGitLooking } from './git-looking.ts';
import { buildCannotJudgeText, type EscapeOffer, guardName } from './reasons.ts';

/** What the gate could not judge, and what a refusal would say about it. */
export interface Unjudged {
  subject: string; // the command or segment a refusal quotes
  why: string;
  escape: EscapeOffer;
  command: string; // the whole command: an unparseable one keeps the escape as a prefix at its very start
  escaped?: boolean; // the segment carries a GIT_GATE=<off-value> prefix (what a 'segment' offer takes)
}

/** The call's trace and audit trail (the runtime's `note`): a refusal the escape let through is noted. */
export type Note = (fields: TraceFields) => void;

/**
 * What "cannot judge" becomes: the only thing strict mode changes (the fail-open record's
 * amendment). The default policy answers no opinion everywhere; the strict one refuses where the
 * record says so.
 */
export interface StrictPolicy {
  /** Step 3: the payload is not a Bash call with a command; `raw` is the stdin text. */
  unreadablePayload: (raw: string, why: string) => Verdict;
  /** Step 5: the cwd is missing or not a directory, for a git-looking command. */
  unusableCwd: (command: string, why: string, cause: 'cwd-missing' | 'cwd-not-directory') => Verdict;
  /**
   * Steps 7 and 8: part of the line cannot be judged; `applies` is the evidence probe's answer
   * there. A refusal the offered escape lets through is noted as an escape used (`{ escape: cause }`,
   * the refusal's rule), as a deny's escape is; a call that would have been silent notes nothing.
   */
  unjudged: (unjudged: Unjudged, applies: boolean, cause: string, note?: Note) => Verdict;
}

const failOpen: StrictPolicy = {
  unreadablePayload: () => cannotJudge('payload'),
  unusableCwd: (_command, _why, cause) => cannotJudge(cause),
  unjudged: (_unjudged, _applies, cause) => cannotJudge(cause),
};

const refuseUnjudged: StrictPolicy = {
  // Before the payload is read the gate cannot tell a managed repository from another: any
  // git-looking call is refused. That is what opting in asks for.
  unreadablePayload: (raw, why) =>
    isRawTextGitLooking(raw)
      ? refuse(
          guardName,
          buildCannotJudgeText({
            subject: null,
            why: `${why}, and its raw text looks like git`,
            escape: 'none',
          }),
          'payload',
        )
      : cannotJudge('payload'),
  unusableCwd: (command, why) =>
    refuse(guardName, buildCannotJudgeText({ subject: command, why, escape: 'none' })),
  // Once the payload and cwd are read, the probe decides: a machine-wide variable never
  // deadlocks an unrelated repository.
  unjudged: (unjudged, applies, cause, note) => {
    if (!applies) return cannotJudge(cause);
    if (!escapeTaken(unjudged)) return refuse(guardName, buildCannotJudgeText(unjudged), cause);
    note?.({ escape: cause });
    return none();
  },
};

// Step 10 on a refusal: the escape its reason offers, present where that offer says it counts.
function escapeTaken(unjudged: Unjudged): boolean {
  if (unjudged.escape === 'segment') return unjudged.escaped === true;
  return unjudged.escape === 'command-start' && startsWithEscape(unjudged.command);
}

/** The policy `TAGOUT_HOOKS_STRICT` selects: refusals in strict mode, no opinion by default. */
export function policyFor(env: Record<string, string | undefined>): StrictPolicy {
  return isStrict(env) ? refuseUnjudged : failOpen;
}

/**
 * Step 3's raw-text rule for a payload runHook could not read at all (not JSON, not an object,
 * stdin too large or cut) or a call that failed. GIT_GATE=off still wins. Undefined: no opinion.
 */
export function judgeFailedPayload(
  raw: string,
  env: Record<string, string | undefined>,
  cause: string,
): Verdict | undefined {
  if (readSwitch(env, switchName) === 'off') return undefined;
  const verdict = policyFor(env).unreadablePayload(raw, `the hook payload cannot be read (${cause})`);
  return verdict.kind === 'refuse' ? verdict : undefined;
}

/**
 * runHook's onFailOpen for this gate: on any path where the call could not be judged at all
 * (stdin unreadable, not JSON, not an object, the evaluation failed), strict mode refuses when
 * the raw stdin text is git-looking; otherwise, and by default, no opinion.
 */
export function onFailOpen(cause: FailCause, runtime: HookRuntime): Verdict | undefined {
  return judgeFailedPayload(runtime.raw, runtime.env, cause);
}
