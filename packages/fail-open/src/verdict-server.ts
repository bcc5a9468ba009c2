import {
  chmodSync,
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
import { connect, createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { isJsonObject } from './json.ts';
import { mailboxProtocol } from './mailbox-protocol.ts';
import type { HookOutput } from './runtime-types.ts';

/** Where the server listens and what it answers to, as the bundle's front worked it out. */
export interface ServePlace {
  folder: string; // the per-user folder the socket is in
  socket: string; // the socket path to take over: the server's name, which answers pings
  mailbox: string; // the folder the calls leave their requests in, and find their replies
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
  stdin: string; // the payload, read to its end within the front's bounds
}

/** The answer to one request: what the hook process would have written, and its exit status. */
export type AnswerRequest = (request: ServerRequest) => Promise<HookOutput>;

const maxRequestBytes = 65 * 1024 * 1024; // the front's 64 MiB payload cap and the named variables
const maxPingBytes = 64 * 1024;
const ownershipCheckMs = 1000; // how often the server checks the socket path is still its own
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
 * Runs the verdict server until its quiet period passes or its name or claim is removed. Claims the
 * mailbox first (it ends at once when a live server holds it), warms the guard, then takes the
 * socket's name: it listens on a name of its own and renames that onto the socket. The socket answers pings only; calls come through
 * the mailbox, a 0700 folder beside it: a call leaves `<id>.req` there, the server takes it by
 * renaming it to `work/<id>.taken` and writes `work/<id>.reply` (the front's `ask` is the other half). A
 * call reads and writes files synchronously, so it never loads node:net or builds a stream. Calls
 * are answered one at a time, each in the process state of the call (cwd, environment, umask), so
 * that a verdict depends on nothing the server saw before.
 */
export async function serveVerdicts(
  place: ServePlace,
  answer: AnswerRequest,
  warmUp?: () => unknown,
): Promise<void> {
  // The start marker goes once this server listens (or finds one that does). A start that failed
  // leaves it, so that the calls start no other server until it is old (the front's startingFreshMs):
  // a server that can never listen here is tried again every few seconds, not on every call.
  const started = (): void => rmSync(`${place.socket}.starting`, { force: true });
  // At most one server per key: the claim on the mailbox is exclusive, and taken before the
  // warm-up, so a second server started meanwhile ends at once instead of warming a guard.
  let claimed: boolean;
  try {
    claimed = claimMailbox(place.mailbox);
  } catch {
    claimed = false; // a mailbox that is not the user's alone: no server here
  }
  if (!claimed) return started();
  try {
    await warmUp?.();
  } catch {
    // a warm-up that fails leaves the first call to warm the guard
  }
  await listen(place, answer, started);
}

/**
 * True when the verdict server at `socket` answers a ping with `key` within `boundMs` (doctor's
 * check, and a starting server's look at the one holding its name). Never rejects.
 */
export function pingVerdictServer(socket: string, key: string, boundMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const connection = connect(socket);
    const finish = (answers: boolean): void => {
      clearTimeout(timer);
      connection.destroy();
      resolve(answers);
    };
    const timer = setTimeout(() => finish(false), boundMs);
    connection.on('connect', () => connection.end(`${JSON.stringify({ v: 1, key, ping: true })}\n`));
    connection.on('data', (chunk: Buffer) => chunks.push(chunk));
    connection.on('end', () => {
      try {
        const reply: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        finish(isJsonObject(reply) && reply.key === key);
      } catch {
        finish(false);
      }
    });
    connection.on('error', () => finish(false));
  });
}

function listen(place: ServePlace, answer: AnswerRequest, onListening: () => void): Promise<void> {
  return new Promise((resolve) => {
    let queue: Promise<void> = Promise.resolve();
    const queued = new Set<string>(); // the requests waiting their turn, by id
    let ownIno = -1;
    let stopping = false;
    let watcher: FSWatcher | undefined;
    let scanner: NodeJS.Timeout | undefined;
    // The socket is the server's name: it answers pings (doctor, a starting server's look), nothing else.
    const server = createServer((connection) => {
      idle.refresh();
      connection.on('error', () => undefined);
      readPing(connection, (ping) => {
        if (ping) connection.end(`${JSON.stringify({ key: place.key })}\n`);
        else connection.destroy();
      });
    });
    // Requests arrive in the mailbox itself; everything else of a call's lives in its work folder,
    // so that the change notices the server wakes for are the requests'.
    const inWork = (id: string, suffix: string): string => join(place.mailbox, workFolder, `${id}${suffix}`);
    // Every request joins the queue once; calls are answered one at a time, in turn.
    const enqueue = (name: string): void => {
      if (stopping || !name.endsWith(requestSuffix)) return;
      const id = name.slice(0, -requestSuffix.length);
      if (queued.has(id)) return;
      queued.add(id);
      idle.refresh();
      // One call's failure never stops the queue: the calls after it are still answered.
      queue = queue
        .then(() => answerOne(id))
        .catch(() => undefined)
        .finally(() => queued.delete(id));
    };
    const scan = (): void => {
      if (stopping) return;
      let names: string[];
      try {
        names = readdirSync(place.mailbox);
      } catch {
        stop(); // the mailbox is gone: no call can reach this server
        return;
      }
      for (const name of names) enqueue(name);
    };
    const answerOne = async (id: string): Promise<void> => {
      if (stopping) return; // the call withdraws at its bound and answers itself
      // Taking the request is a rename: the call's withdrawal is one too, so exactly one of the two
      // succeeds, and a call is never answered twice.
      const taken = inWork(id, mailboxProtocol.taken);
      try {
        renameSync(join(place.mailbox, `${id}${requestSuffix}`), taken);
      } catch {
        return; // withdrawn: its call answered itself
      }
      const request = readRequestFile(taken, place.key);
      if (request !== null && Date.now() > request.expires) {
        // Its call has stopped waiting (or was killed): never judged, and gone from the disk.
        rmSync(taken, { force: true });
        return;
      }
      let reply: Reply;
      if (request === null) {
        reply = { doubt: 'request' }; // not a request to answer: its call judges itself
      } else {
        try {
          reply = await answerInCallState(request, answer, place.folder);
        } catch {
          reply = { doubt: 'threw' }; // the call judges itself; the queue goes on
        }
      }
      idle.refresh();
      const part = inWork(id, mailboxProtocol.part);
      try {
        writeFileSync(part, `${JSON.stringify({ key: place.key, ...reply })}\n`, { mode: 0o600 });
        renameSync(part, inWork(id, replySuffix));
      } catch {
        rmSync(part, { force: true }); // its call finds neither: it answers itself
      }
      rmSync(taken, { force: true });
      lookForBurst();
    };
    let burstLook: NodeJS.Timeout | undefined;
    let burstLookUntil = 0;
    const lookForBurst = (): void => {
      if (burstLookMs === 0 || stopping) return;
      burstLookUntil = Date.now() + burstLookMs;
      if (burstLook !== undefined) return;
      burstLook = setInterval(() => {
        scan();
        if (Date.now() < burstLookUntil && !stopping) return;
        clearInterval(burstLook);
        burstLook = undefined;
      }, burstLookEveryMs);
    };
    const stop = (): void => {
      if (stopping) return;
      stopping = true;
      clearTimeout(idle);
      clearInterval(ownership);
      clearInterval(scanner);
      clearInterval(burstLook);
      watcher?.close();
      server.close();
      // The name and the mailbox go with the server that claims them; a name removed (the way to
      // end a server from outside) takes the mailbox along.
      if (ownsName()) rmSync(place.socket, { force: true });
      if (holdsClaim(place.mailbox)) rmSync(place.mailbox, { recursive: true, force: true });
      void queue.then(() => resolve());
    };
    const ownsName = (): boolean => {
      try {
        return lstatSync(place.socket).ino === ownIno;
      } catch {
        return false;
      }
    };
    const idle = setTimeout(stop, place.idleMs);
    let ownership: NodeJS.Timeout | undefined;

    // Shorter than the socket's own name (its length is checked against sun_path's), and this process's.
    const ownName = `${place.folder}/${process.pid}.new`;
    const dropOwnName = (): boolean => {
      try {
        rmSync(ownName, { force: true });
        return true;
      } catch {
        return false; // not a file this server can remove: it cannot listen there
      }
    };
    server.on('error', () => {
      dropOwnName();
      stop();
    });
    if (!dropOwnName()) return stop();
    server.listen(ownName, () => {
      try {
        chmodSync(ownName, 0o600);
        sweepLeftovers(join(place.mailbox, workFolder)); // and every 10 s after
        // A notice names the request that came (or went: taking it is a notice too, and finds it
        // gone); a notice without a name, or one missed, is made good by a look at the folder.
        watcher = watch(place.mailbox, (_event, name) => {
          if (name === null) scan();
          else enqueue(String(name));
        });
        watcher.on('error', stop);
        renameSync(ownName, place.socket);
        ownIno = lstatSync(place.socket).ino;
      } catch {
        dropOwnName();
        stop();
        return;
      }
      // Unref'd: the listening server and the idle timer keep the process alive, these do not.
      let sweptAt = Date.now();
      scanner = setInterval(() => {
        scan();
        if (Date.now() - sweptAt < sweepEveryMs) return;
        sweptAt = Date.now();
        sweepLeftovers(join(place.mailbox, workFolder));
      }, mailboxScanMs);
      scanner.unref();
      ownership = setInterval(() => {
        if (!ownsName() || !holdsClaim(place.mailbox)) stop(); // its name or its claim removed
      }, ownershipCheckMs);
      ownership.unref();
      onListening();
      scan();
    });
  });
}

const { request: requestSuffix, reply: replySuffix, work: workFolder, claim: claimName } = mailboxProtocol;

// The mailbox is the user's alone (in the checked folder, and 0700 itself).
function openMailbox(mailbox: string): void {
  const uid = process.getuid?.();
  for (const folder of [mailbox, join(mailbox, workFolder)]) {
    try {
      mkdirSync(folder, { mode: 0o700 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const stat = lstatSync(folder);
    if (!stat.isDirectory() || stat.uid !== uid || (stat.mode & 0o077) !== 0) {
      throw new Error('the mailbox is not the user\u2019s alone');
    }
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

/** True while `pid` runs; on Linux a zombie counts as ended (the front's `alive`). */
export function processRuns(pid: number): boolean {
  if (!(pid > 0)) return false;
  try {
    if (process.platform !== 'linux') return process.kill(pid, 0);
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const state = stat.charAt(stat.lastIndexOf(')') + 2);
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
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

// A ping is one line on the socket; anything else is not answered.
function readPing(connection: Socket, received: (ping: boolean) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let read = false;
  const done = (ping: boolean): void => {
    if (read) return;
    read = true;
    received(ping);
  };
  connection.on('end', () => done(false));
  connection.on('data', (chunk: Buffer) => {
    if (read) return;
    size += chunk.length;
    if (size > maxPingBytes) return done(false);
    chunks.push(chunk);
    if (!chunk.includes(0x0a)) return;
    const text = Buffer.concat(chunks).toString('utf8');
    try {
      const value: unknown = JSON.parse(text.slice(0, text.indexOf('\n')));
      done(isJsonObject(value) && value.v === 1 && value.ping === true);
    } catch {
      done(false);
    }
  });
}

// The request a call left, or null when it is not one this server answers.
function readRequestFile(file: string, key: string): ServerRequest | null {
  try {
    if (lstatSync(file).size > maxRequestBytes) return null;
    const request = toRequest(JSON.parse(readFileSync(file, 'utf8')));
    return request !== null && request.key === key ? request : null;
  } catch {
    return null;
  }
}

function toRequest(value: unknown): ServerRequest | null {
  if (!isJsonObject(value) || value.v !== mailboxProtocol.version) return null;
  const { key, cwd, env, umask, expires, stdin } = value;
  if (typeof key !== 'string' || typeof cwd !== 'string' || typeof stdin !== 'string') return null;
  if (typeof umask !== 'number' || typeof expires !== 'number') return null;
  if (!isJsonObject(env) || !Object.values(env).every((entry) => typeof entry === 'string')) return null;
  return { key, cwd, env: env as Record<string, string>, umask, expires, stdin };
}

type Reply = { stdout: string; stderr: string; exitCode: 0 | 2 } | { doubt: string };

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
