// What a call that left its request in the verdict server's mailbox does next: one pure function
// of what it has seen, so that every race the server has met is a row of a table
// (test/wait-policy.test.ts), not a path through two loops. The front prints it into every bundle
// (bundle-loader.ts), so it names nothing but its parameters.

/** What a waiting call has seen, looked at in this order: the server, its request, its reply. */
export interface WaitFacts {
  waitedMs: number; // since the request was left
  serverAlive: boolean; // the pid the mailbox names (now, or when the call began) runs
  taken: boolean; // the server took the request: the call's withdrawal failed
  takenThere: boolean; // the server still holds it (`work/<id>.taken`); read only once taken
  replyThere: boolean; // the reply is there; looked at last, so a reply written before its
  // server let the request go or ended is never missed
}

/** How long a call waits: for its request to be taken, then for the reply of a server that took it. */
export interface WaitBounds {
  replyMs: number; // a request not taken by then is withdrawn, and the call answers in process
  takenMs: number; // a request taken is the server's to answer within this (runHook's budget and a margin)
}

/**
 * The next step: `reply` read it; `wait` look again; `withdraw-busy` and `withdraw-gone` take the
 * request back (withdrawn: answer in process, busy or gone; not withdrawable: the server took it, look
 * again); `gone` a server that took it ended; `dropped` it let it go unanswered; `slow` it did not
 * answer in time. Only `gone` (withdrawn or not) starts a server: a slow one is never replaced.
 */
export type WaitStep = 'reply' | 'wait' | 'withdraw-busy' | 'withdraw-gone' | 'gone' | 'dropped' | 'slow';

export function nextWaitStep(facts: WaitFacts, bounds: WaitBounds): WaitStep {
  if (facts.replyThere) return 'reply';
  if (!facts.serverAlive) return facts.taken ? 'gone' : 'withdraw-gone';
  if (!facts.taken) return facts.waitedMs >= bounds.replyMs ? 'withdraw-busy' : 'wait';
  if (!facts.takenThere) return 'dropped';
  return facts.waitedMs >= bounds.takenMs ? 'slow' : 'wait';
}

/** The front's bounds: a warm round trip is about 1 ms (5 on a loaded machine). */
export const waitBounds: WaitBounds = { replyMs: 40, takenMs: 3500 };
