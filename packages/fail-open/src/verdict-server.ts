import {
  type FSWatcher,
  linkSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  watch,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { isJsonObject } from './json.ts';
import { mailboxProtocol } from './mailbox-protocol.ts';
import { closedToOthers, folderProblem } from './own-folder.ts';
import { claimedBy, processRuns } from './process-runs.ts';
import { startingMarkerOf } from './front/starting-marker.ts';
import type { HookOutput } from './runtime-types.ts';

/** Where the server serves and what it answers to, as the bundle's front worked it out. */
export interface ServePlace {
  folder: string; // the per-user folder the mailbox is in
  mailbox: string; // the folder the calls leave their requests in, and find their replies: the server's name
  key: string; // what every request must name: bundle hash, node version, arguments
  idleMs: number; // the quiet period after which the server exits
}

/** One call, as the front sent it: what the hook process would have had. */
export interface ServerRequest {
  key: string; // the server it was meant for: bundle hash, node version, arguments
  cwd: string;
  env: Record<string, string>;
  umask: number;
  expires: number; // when its call stops waiting (ms since the epoch): later, it is never judged
  calledAt: number; // when the host made the call (ms since the epoch), as the front stamped it
  stdin: string; // the payload, read to its end within the front's bounds
}

/** The answer to one request: what the hook process would have written, and its exit status. */
export type AnswerRequest = (request: ServerRequest) => Promise<HookOutput>;

const maxRequestBytes = 65 * 1024 * 1024; // the front's 64 MiB payload cap and the named variables
const claimCheckMs = 1000; // how often the server checks the mailbox is still its own
// A change notice missed (an overflowing inotify queue) is made good within this.
const mailboxScanMs = 200;
// macOS delivers a folder's change notices through FSEvents, which holds back a notice that comes
// within 50 ms of the last one. There, for this long after each call, the server also looks at the
// mailbox every 2 ms, so that a call in a burst is not left waiting for its notice.
const burstLookMs = process.platform === 'darwin' ? 100 : 0;
const burstLookEveryMs = 2;
// What a call left in the work folder and never came back for (a host that killed it) goes after this.
const leftoverMs = 60_000;
const sweepEveryMs = 10_000;

/**
 * Runs the verdict server until its quiet period passes or its claim (or mailbox) is removed.
 * Claims the mailbox first (it ends at once when a live server holds it), then warms the guard.
 * The mailbox is the server's one transport and its name: a call leaves `<id>.req` there, the
 * server takes it by renaming it to `work/<id>.taken` and writes `work/<id>.reply` (the front's
 * `ask` is the other half; doctor's ping is a request too). Its pid in the claim is the one idea
 * of "alive". A call reads and writes files synchronously, so it never loads node:net or builds a
 * stream. Calls are answered one at a time, each in the process state of the call (cwd,
 * environment, umask), so that a verdict depends on nothing the server saw before.
 */
export async function serveVerdicts(
  place: ServePlace,
  answer: AnswerRequest,
  warmUp?: () => unknown,
): Promise<void> {
  // The start marker goes once this server serves (or finds one that does). A start that failed
  // leaves it, so that the calls start no other server until it is old (the front's startingFreshMs):
  // a server that can never serve here is tried again every few seconds, not on every call.
  const started = (): void => rmSync(startingMarkerOf(place.mailbox), { force: true });
  // At most one server per key: the claim on the mailbox is exclusive, and taken before the
  // warm-up, so a second server started meanwhile ends at once instead of warming a guard.
  let claimed: boolean;
  try {
    claimed = claimMailbox(place.mailbox);
  } catch {
    claimed = false; // a mailbox that is not the user's alone: no server here
  }
  // Another live server holds the claim: that one serves, and the calls may start no other. A
  // claim this server could not make for another reason leaves the marker: a start that failed.
  if (!claimed) {
    if (processRuns(claimedBy(place.mailbox, claimName))) started();
    return;
  }
  try {
    await warmUp?.();
  } catch {
    // a warm-up that fails leaves the first call to warm the guard
  }
  await new Promise<void>((resolve) => serveMailbox(place, answer, started, resolve));
}

/**
 * True when the verdict server of `mailbox` answers a ping with `key` within `boundMs` (doctor's
 * check): a request of its own through the mailbox, as a call's, that the server answers without
 * judging anything. A mailbox no live process claims is not asked. Never rejects.
 */
export async function pingVerdictServer(mailbox: string, key: string, boundMs: number): Promise<boolean> {
  if (!processRuns(claimedBy(mailbox, claimName))) return false;
  const id = `ping-${process.pid}-${Date.now().toString(36)}`;
  const inWork = (suffix: string): string => join(mailbox, workFolder, `${id}${suffix}`);
  const expires = Date.now() + boundMs;
  try {
    writeFileSync(
      inWork(mailboxProtocol.writing),
      JSON.stringify({ v: mailboxProtocol.version, key, ping: true, expires }),
      { mode: 0o600 },
    );
    renameSync(inWork(mailboxProtocol.writing), join(mailbox, `${id}${requestSuffix}`));
  } catch {
    rmSync(inWork(mailboxProtocol.writing), { force: true });
    return false;
  }
  while (Date.now() < expires) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    try {
      const reply: unknown = JSON.parse(readFileSync(inWork(replySuffix), 'utf8'));
      rmSync(inWork(replySuffix), { force: true });
      return isJsonObject(reply) && reply.key === key && reply.pong === true;
    } catch {
      // not yet
    }
  }
  rmSync(join(mailbox, `${id}${requestSuffix}`), { force: true }); // not taken: never answered
  return false;
}

/** What the server's loop holds between calls. */
interface Serving {
  place: ServePlace;
  answer: AnswerRequest;
  queue: Promise<void>;
  queued: Set<string>; // the requests waiting their turn, by id
  stopping: boolean;
  idle: NodeJS.Timeout;
  timers: NodeJS.Timeout[]; // the looks at the mailbox and at the claim
  burstLook: NodeJS.Timeout | undefined;
  burstLookUntil: number;
  watcher: FSWatcher | undefined;
  ended: () => void;
}

// Serves the mailbox until the quiet period passes, the claim is lost or the mailbox is gone.
function serveMailbox(
  place: ServePlace,
  answer: AnswerRequest,
  onServing: () => void,
  ended: () => void,
): void {
  const serving: Serving = {
    place,
    answer,
    queue: Promise.resolve(),
    queued: new Set(),
    stopping: false,
    idle: setTimeout(() => stop(serving), place.idleMs),
    timers: [],
    burstLook: undefined,
    burstLookUntil: 0,
    watcher: undefined,
    ended,
  };
  const work = join(place.mailbox, workFolder);
  try {
    sweepLeftovers(work); // and every 10 s after
    // A notice names the request that came (or went: taking it is a notice too, and finds it
    // gone); a notice without a name, or one missed, is made good by a look at the folder.
    serving.watcher = watch(place.mailbox, (_event, name) => {
      if (name === null) scan(serving);
      else enqueue(serving, String(name));
    });
    serving.watcher.on('error', () => stop(serving));
  } catch {
    stop(serving);
    return;
  }
  // Unref'd: the watcher and the idle timer keep the process alive, these do not.
  let sweptAt = Date.now();
  const scanner = setInterval(() => {
    scan(serving);
    if (Date.now() - sweptAt < sweepEveryMs) return;
    sweptAt = Date.now();
    sweepLeftovers(work);
  }, mailboxScanMs);
  const claimCheck = setInterval(() => {
    if (!holdsClaim(place.mailbox)) stop(serving); // its claim removed: the way to end a server from outside
  }, claimCheckMs);
  for (const timer of [scanner, claimCheck]) timer.unref();
  serving.timers.push(scanner, claimCheck);
  onServing();
  scan(serving);
}

// Every request joins the queue once; calls are answered one at a time, in turn.
function enqueue(serving: Serving, name: string): void {
  if (serving.stopping || !name.endsWith(requestSuffix)) return;
  const id = name.slice(0, -requestSuffix.length);
  if (serving.queued.has(id)) return;
  serving.queued.add(id);
  serving.idle.refresh();
  // One call's failure never stops the queue: the calls after it are still answered.
  serving.queue = serving.queue
    .then(() => answerOne(serving, id))
    .catch(() => undefined)
    .finally(() => serving.queued.delete(id));
}

function scan(serving: Serving): void {
  if (serving.stopping) return;
  let names: string[];
  try {
    names = readdirSync(serving.place.mailbox);
  } catch {
    stop(serving); // the mailbox is gone: no call can reach this server
    return;
  }
  for (const name of names) enqueue(serving, name);
}

async function answerOne(serving: Serving, id: string): Promise<void> {
  if (serving.stopping) return; // the call withdraws at its bound and answers itself
  const { place } = serving;
  const inWork = (suffix: string): string => join(place.mailbox, workFolder, `${id}${suffix}`);
  // Taking the request is a rename: the call's withdrawal is one too, so exactly one of the two
  // succeeds, and a call is never answered twice.
  const taken = inWork(mailboxProtocol.taken);
  try {
    renameSync(join(place.mailbox, `${id}${requestSuffix}`), taken);
  } catch {
    return; // withdrawn: its call answered itself
  }
  const request = readRequestFile(taken, place.key);
  if (request !== null && request !== 'ping' && Date.now() > request.expires) {
    // Its call has stopped waiting (or was killed): never judged, and gone from the disk.
    rmSync(taken, { force: true });
    return;
  }
  const reply = await replyTo(request, serving);
  serving.idle.refresh();
  const part = inWork(mailboxProtocol.part);
  try {
    writeFileSync(part, `${JSON.stringify({ key: place.key, ...reply })}\n`, { mode: 0o600 });
    renameSync(part, inWork(replySuffix));
  } catch {
    rmSync(part, { force: true }); // its call finds neither: it answers itself
  }
  rmSync(taken, { force: true });
  lookForBurst(serving);
}

async function replyTo(request: ServerRequest | 'ping' | null, serving: Serving): Promise<Reply> {
  if (request === null) return { doubt: 'request' }; // not a request to answer: its call judges itself
  if (request === 'ping') return { pong: true }; // doctor's: answered, nothing judged
  try {
    return await answerInCallState(request, serving.answer, serving.place.folder);
  } catch {
    return { doubt: 'threw' }; // the call judges itself; the queue goes on
  }
}

function lookForBurst(serving: Serving): void {
  if (burstLookMs === 0 || serving.stopping) return;
  serving.burstLookUntil = Date.now() + burstLookMs;
  if (serving.burstLook !== undefined) return;
  serving.burstLook = setInterval(() => {
    scan(serving);
    if (Date.now() < serving.burstLookUntil && !serving.stopping) return;
    clearInterval(serving.burstLook);
    serving.burstLook = undefined;
  }, burstLookEveryMs);
}

function stop(serving: Serving): void {
  if (serving.stopping) return;
  serving.stopping = true;
  clearTimeout(serving.idle);
  for (const timer of serving.timers) clearInterval(timer);
  clearInterval(serving.burstLook);
  serving.watcher?.close();
  // The mailbox goes with the server that claims it.
  if (holdsClaim(serving.place.mailbox)) rmSync(serving.place.mailbox, { recursive: true, force: true });
  void serving.queue.then(() => serving.ended());
}

const { request: requestSuffix, reply: replySuffix, work: workFolder, claim: claimName } = mailboxProtocol;

// The mailbox is the user's alone (in the checked folder, and 0700 itself).
function openMailbox(mailbox: string): void {
  for (const folder of [mailbox, join(mailbox, workFolder)]) {
    try {
      mkdirSync(folder, { mode: 0o700 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (folderProblem(folder, closedToOthers) !== null)
      throw new Error('the mailbox is not the user\u2019s alone');
  }
}

/**
 * Claims the mailbox for this process: `server` names its pid, made by a link that fails when the
 * name is there. A claim whose process runs is never taken (true only for this process's own); a
 * claim whose process ended is broken by a rename, which one server alone can make, and made again.
 * So at most one live server per key, however many were started, and a slow one is never replaced.
 */
function claimMailbox(mailbox: string): boolean {
  openMailbox(mailbox);
  const claim = join(mailbox, claimName);
  const mine = join(mailbox, `${claimName}.${process.pid}`);
  writeFileSync(mine, String(process.pid), { mode: 0o600 });
  try {
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        linkSync(mine, claim);
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return false;
      }
      const holder = claimHolder(claim);
      if (holder === null || processRuns(holder.pid)) return false;
      const broken = join(mailbox, `${claimName}.${process.pid}.broken`);
      try {
        renameSync(claim, broken);
      } catch {
        return false; // another server broke it first
      }
      // Renamed between this look and the rename: a claim another server made meanwhile goes back.
      if (lstatSync(broken).ino !== holder.ino) {
        try {
          linkSync(broken, claim);
        } catch {
          // a third claim is there: it stands
        }
        rmSync(broken, { force: true });
        return false;
      }
      rmSync(broken, { force: true });
    }
    return false;
  } finally {
    rmSync(mine, { force: true });
  }
}

function claimHolder(claim: string): { pid: number; ino: number } | null {
  try {
    const ino = lstatSync(claim).ino;
    return { pid: Number(readFileSync(claim, 'latin1')), ino };
  } catch {
    return null; // gone meanwhile: the next attempt links it
  }
}

function holdsClaim(mailbox: string): boolean {
  return claimHolder(join(mailbox, claimName))?.pid === process.pid;
}

// A reply no call read, a request half written: files of calls that ended without their answer.
function sweepLeftovers(work: string): void {
  try {
    for (const name of readdirSync(work)) {
      const file = join(work, name);
      try {
        if (Date.now() - lstatSync(file).mtimeMs > leftoverMs) rmSync(file, { force: true });
      } catch {
        // gone meanwhile
      }
    }
  } catch {
    // the folder is gone: the next look at the mailbox ends the server
  }
}

// The request a call left (or doctor's ping), or null when it is not one this server answers.
function readRequestFile(file: string, key: string): ServerRequest | 'ping' | null {
  try {
    if (lstatSync(file).size > maxRequestBytes) return null;
    const value: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (isJsonObject(value) && value.ping === true) {
      const expires = value.expires;
      const fresh = typeof expires === 'number' && Date.now() <= expires;
      return value.v === mailboxProtocol.version && value.key === key && fresh ? 'ping' : null;
    }
    const request = toRequest(value);
    return request !== null && request.key === key ? request : null;
  } catch {
    return null;
  }
}

function toRequest(value: unknown): ServerRequest | null {
  if (!isJsonObject(value) || value.v !== mailboxProtocol.version) return null;
  const { key, cwd, env, umask, expires, calledAt, stdin } = value;
  if (typeof key !== 'string' || typeof cwd !== 'string' || typeof stdin !== 'string') return null;
  if (typeof umask !== 'number' || typeof expires !== 'number' || typeof calledAt !== 'number') return null;
  if (!isJsonObject(env) || !Object.values(env).every((entry) => typeof entry === 'string')) return null;
  return { key, cwd, env: env as Record<string, string>, umask, expires, calledAt, stdin };
}

type Reply = { stdout: string; stderr: string; exitCode: 0 | 2 } | { doubt: string } | { pong: true };

// The server takes on the call's cwd, environment and umask, as the hook process would have had
// them: a relative path, os.tmpdir() or a file the guard writes resolve as they would there.
async function answerInCallState(
  request: ServerRequest,
  answer: AnswerRequest,
  home: string,
): Promise<Reply> {
  try {
    process.chdir(request.cwd);
  } catch {
    return { doubt: 'cwd' }; // the call's folder is gone: the hook, in process, judges that itself
  }
  for (const name of Object.keys(process.env)) {
    if (!Object.hasOwn(request.env, name)) delete process.env[name];
  }
  Object.assign(process.env, request.env);
  process.umask(request.umask);
  try {
    const output = await answer(request);
    return { stdout: output.stdout, stderr: output.stderr, exitCode: output.exitCode };
  } finally {
    try {
      process.chdir(home); // between calls the server holds no folder of the user's open
    } catch {
      // its own folder gone: the next call's chdir still comes first
    }
  }
}
