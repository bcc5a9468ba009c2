import type { TraceFields } from '@kit/fail-open';

/**
 * A guard's decision on one tool call. Discriminated on `kind`. `fields` are named facts about
 * how it was reached (`{ precheck: 'no-gate-word', parser: false }`, `{ rewrite: '…' }`): they go
 * to the KIT_HOOKS_TRACE line and to `explain --json`, never to the host.
 */
export type Verdict =
  | { kind: 'none'; fields?: TraceFields } // no opinion: the normal permission flow goes on
  | { kind: 'deny'; reason: string; rule?: string; fields?: TraceFields } // the call is denied; the reason reaches the model
  | { kind: 'refuse'; reason: string; rule?: string; fields?: TraceFields } // exit 2: strict policies only
  | { kind: 'cannotJudge'; cause: string; fields?: TraceFields }; // no opinion, with the cause kept for the trace

/** No opinion, with the named fields of how that was decided, if any. */
export function none(fields?: TraceFields): Verdict {
  return fields === undefined ? { kind: 'none' } : { kind: 'none', fields };
}

/** A deny whose reason opens with the guard's name: `${guard}: ${text}`. */
export function deny(guard: string, text: string, rule?: string, fields?: TraceFields): Verdict {
  return withFields({ kind: 'deny', reason: buildReason(guard, text), ...ruleOf(rule) }, fields);
}

/** A refusal (exit 2, reason on stderr) whose reason opens with the guard's name. Strict policies only. */
export function refuse(guard: string, text: string, rule?: string, fields?: TraceFields): Verdict {
  return withFields({ kind: 'refuse', reason: buildReason(guard, text), ...ruleOf(rule) }, fields);
}

/** "Cannot judge": no opinion, with its cause ('syntax', 'cwd-missing', ...). */
export function cannotJudge(cause: string, fields?: TraceFields): Verdict {
  return withFields({ kind: 'cannotJudge', cause }, fields);
}

function ruleOf(rule: string | undefined): { rule?: string } {
  return rule === undefined ? {} : { rule };
}

function withFields<V extends Verdict>(verdict: V, fields: TraceFields | undefined): V {
  return fields === undefined ? verdict : { ...verdict, fields };
}

function buildReason(guard: string, text: string): string {
  return `${guard}: ${text}`;
}
