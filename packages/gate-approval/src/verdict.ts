/** A guard's decision on one tool call. Discriminated on `kind`. */
export type Verdict =
  | { kind: 'none' } // no opinion: the normal permission flow goes on
  | { kind: 'deny'; reason: string; rule?: string } // the call is denied; the reason reaches the model
  | { kind: 'refuse'; reason: string; rule?: string } // exit 2: strict policies only
  | { kind: 'cannotJudge'; cause: string }; // no opinion, with the cause kept for the trace

/** No opinion. */
export function none(): Verdict {
  return { kind: 'none' };
}

/** A deny whose reason opens with the guard's name: `${guard}: ${text}`. */
export function deny(guard: string, text: string, rule?: string): Verdict {
  return rule === undefined
    ? { kind: 'deny', reason: buildReason(guard, text) }
    : { kind: 'deny', reason: buildReason(guard, text), rule };
}

/** A refusal (exit 2, reason on stderr) whose reason opens with the guard's name. Strict policies only. */
export function refuse(guard: string, text: string, rule?: string): Verdict {
  return rule === undefined
    ? { kind: 'refuse', reason: buildReason(guard, text) }
    : { kind: 'refuse', reason: buildReason(guard, text), rule };
}

/** "Cannot judge": no opinion, with its cause ('syntax', 'cwd-missing', ...). */
export function cannotJudge(cause: string): Verdict {
  return { kind: 'cannotJudge', cause };
}

function buildReason(guard: string, text: string): string {
  return `${guard}: ${text}`;
}
