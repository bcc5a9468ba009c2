// A call's half of the verdict server's mailbox: leave the request, wait for the reply by the wait
// policy, or take the request back. All of it synchronous file work: no node:net, no stream.
import { existsSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { carriedEnvironment } from '../call-environment.ts';
import { isJsonObject } from '../json.ts';
import { mailboxProtocol as protocol } from '../mailbox-protocol.ts';
import { claimedBy, processRuns } from '../process-runs.ts';
import { nextWaitStep, waitBounds } from '../wait-policy.ts';

/** What the server replied for a call. */
export interface ServedReply {
  stdout: string;
  stderr: string;
  exitCode: 0 | 2;
}

/** How a call ended: answered by the server, or why it answers in process (and how long it waited). */
export type AskOutcome = { served: ServedReply } | { why: string; waitedMs?: number; serverGone?: boolean };

/** One call as the server needs it. */
export interface Call {
  mailbox: string;
  key: string;
  callArgs: string[];
  payload: string;
  environment: readonly string[]; // the variables a served call carries
  calledAt: number; // when the host made the call: the server judges by this time, as the body would
}

// What the server replied, if it is a reply of this bundle's server.
export function readReply(text: string, key: string): ServedReply | { problem: string } {
  let reply: unknown;
  try {
    reply = JSON.parse(text);
  } catch {
    return { problem: 'malformed' };
  }
  if (!isJsonObject(reply)) return { problem: 'malformed' };
  if (reply.key !== key) return { problem: 'wrong-version' };
  if (typeof reply.doubt === 'string') return { problem: 'server-doubt' };
  const { stdout, stderr, exitCode } = reply;
  if (typeof stdout !== 'string' || typeof stderr !== 'string' || (exitCode !== 0 && exitCode !== 2)) {
    return { problem: 'malformed' };
  }
  return { stdout, stderr, exitCode };
}

const remove = (file: string): void => {
  try {
    unlinkSync(file);
  } catch {
    // gone already
  }
};

/**
 * The request a call leaves: only the variables the runtime and the guard read, and an expiry, so
 * a request whose call gave up (or was killed) is never judged (verdict-server.ts drops it).
 */
function requestText(call: Call, cwd: string, askedAt: number): string {
  const umask = process.umask(0o077);
  process.umask(umask);
  const env = carriedEnvironment(process.env, call.environment);
  const expires = askedAt + waitBounds.takenMs;
  const { key, callArgs: args, payload: stdin, calledAt } = call;
  const request = { v: protocol.version, key, args, cwd, umask, env, expires, calledAt, stdin };
  return `${JSON.stringify(request)}\n`;
}

/**
 * Asks the server that `serverPid` names. The call leaves `<id>.req` in the mailbox (written in the
 * work folder first, then renamed in); the server takes it by renaming it to `work/<id>.taken` and
 * answers in `work/<id>.reply`. A call gives up only by withdrawing its request, a rename of its
 * own: exactly one of the two renames succeeds, so a call is answered once, by the server or in
 * process. What it does next is nextWaitStep's (wait-policy.ts).
 */
export function ask(call: Call, serverPid: number): AskOutcome {
  let cwd: string;
  try {
    cwd = process.cwd();
  } catch {
    return { why: 'no-cwd' };
  }
  const askedAt = Date.now();
  const id = `${process.pid}-${askedAt.toString(36)}`;
  const inWork = (suffix: string): string => `${call.mailbox}/${protocol.work}/${id}${suffix}`;
  const requestFile = `${call.mailbox}/${id}${protocol.request}`; // the only file the server is woken for
  try {
    writeFileSync(inWork(protocol.writing), requestText(call, cwd, askedAt), { mode: 0o600 });
    renameSync(inWork(protocol.writing), requestFile);
  } catch {
    remove(inWork(protocol.writing));
    return { why: 'error', waitedMs: Date.now() - askedAt };
  }
  return waitForReply(call, { requestFile, inWork, askedAt, serverPid });
}

interface Waiting {
  requestFile: string;
  inWork: (suffix: string) => string;
  askedAt: number;
  serverPid: number;
}

function withdraw({ requestFile, inWork }: Waiting): boolean {
  try {
    renameSync(requestFile, inWork(protocol.withdrawn));
    remove(inWork(protocol.withdrawn));
    return true;
  } catch {
    return false; // taken, or the mailbox is gone
  }
}

function readIfThere(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null; // not yet
  }
}

// A warm reply takes about a millisecond: the mailbox is looked at every 0.1 ms for the first 5 ms,
// then every 1 ms until the request is taken, then every 5 ms; a look is one failed open.
function waitForReply(call: Call, waiting: Waiting): AskOutcome {
  const napper = new Int32Array(new SharedArrayBuffer(4));
  const { inWork, askedAt } = waiting;
  let { serverPid } = waiting;
  let taken = false;
  for (;;) {
    const waitedMs = Date.now() - askedAt;
    // A replacement names itself only once the server it replaces has ended; the call gives up
    // only when the server named now has ended too.
    if (!processRuns(serverPid)) serverPid = claimedBy(call.mailbox, protocol.claim);
    const serverAlive = processRuns(serverPid);
    const takenThere = taken && existsSync(inWork(protocol.taken));
    const text = readIfThere(inWork(protocol.reply));
    const step = nextWaitStep(
      { waitedMs, serverAlive, taken, takenThere, replyThere: text !== null },
      waitBounds,
    );
    if (step === 'reply' && text !== null) {
      remove(inWork(protocol.reply));
      const reply = readReply(text, call.key);
      return 'problem' in reply ? { why: reply.problem, waitedMs: Date.now() - askedAt } : { served: reply };
    }
    if (step === 'withdraw-busy' || step === 'withdraw-gone') {
      if (withdraw(waiting)) {
        const gone = step === 'withdraw-gone';
        return { why: gone ? 'gone' : 'busy', waitedMs, serverGone: gone };
      }
      taken = true; // the server's to answer now
      continue;
    }
    if (step === 'gone' || step === 'dropped' || step === 'slow') {
      if (step !== 'slow') remove(inWork(protocol.taken));
      return { why: step, waitedMs, serverGone: step === 'gone' };
    }
    Atomics.wait(napper, 0, 0, waitedMs < 5 ? 0.1 : taken ? 5 : 1);
  }
}
