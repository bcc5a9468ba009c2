import { describe, expect, test } from 'vitest';
import { nextWaitStep, type WaitFacts, type WaitStep, waitBounds } from '../src/wait-policy.ts';

// One row per situation a waiting call has met, the races fixed so far among them (git log --
// packages/fail-open names each fix). Every give-up but `gone` starts nothing: a server that is only
// slow is never replaced, so a loaded machine never snowballs servers.

const bounds = { replyMs: 40, takenMs: 3500 };
const asked: WaitFacts = {
  waitedMs: 1,
  serverAlive: true,
  taken: false,
  takenThere: false,
  replyThere: false,
};
const held: WaitFacts = { ...asked, taken: true, takenThere: true };

const rows: [string, WaitFacts, WaitStep][] = [
  ['the control: a warm reply is read', { ...asked, replyThere: true }, 'reply'],
  ['not taken yet, within the bound: wait', asked, 'wait'],
  [
    'not taken at the bound: withdraw, busy (never hung, never replaced)',
    { ...asked, waitedMs: 40 },
    'withdraw-busy',
  ],
  [
    'a server busy with other calls, far past the bound: still only busy',
    { ...asked, waitedMs: 5000 },
    'withdraw-busy',
  ],
  // 1f1ced4: the turn read in the same look as the bound is answered, never judged twice
  [
    'the reply there in the same look as the bound: read it',
    { ...asked, waitedMs: 40, replyThere: true },
    'reply',
  ],
  [
    'the server ended before it took the request: withdraw, gone',
    { ...asked, serverAlive: false },
    'withdraw-gone',
  ],
  ['taken, held, within the taken bound: wait', { ...held, waitedMs: 1000 }, 'wait'],
  ['taken and answered: read it', { ...held, replyThere: true }, 'reply'],
  // the server writes its reply before it lets the taken request go: no gap reads as dropped
  ['taken, let go, and the reply there: read it', { ...held, takenThere: false, replyThere: true }, 'reply'],
  ['taken and let go unanswered: dropped', { ...held, takenThere: false }, 'dropped'],
  // a mailbox removed mid-call: the withdrawal fails as if taken, and nothing is held
  [
    'the mailbox removed mid-call: dropped, in process',
    { ...asked, taken: true, takenThere: false },
    'dropped',
  ],
  // 4eed6aa, ba39a21: a killed server (its pid, or the pid named now, ended) stops the wait at once
  ['taken by a server that ended since (SIGKILL mid-request): gone', { ...held, serverAlive: false }, 'gone'],
  [
    'taken by a server that ended, its reply written first: read it',
    { ...held, serverAlive: false, replyThere: true },
    'reply',
  ],
  // a SIGSTOPped server that took the call: answered in process at the taken bound, not replaced
  ['taken, held past the taken bound (a stopped server): slow', { ...held, waitedMs: 3500 }, 'slow'],
];

describe('the wait policy, one row per situation', () => {
  test.for(rows)('%s', ([, facts, step]) => {
    expect(nextWaitStep(facts, bounds)).toBe(step);
  });
  test('the front waits with these bounds', () => {
    expect(waitBounds).toEqual(bounds);
  });
});
