import { chmodSync, lstatSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { isJsonObject } from './json.ts';
import type { HookOutput } from './runtime-types.ts';

/** Where the server listens and what it answers to, as the bundle's front worked it out. */
export interface ServePlace {
  folder: string; // the per-user folder the socket is in
  socket: string; // the socket path to take over
  key: string; // what every request must name: bundle hash, node version, arguments
  idleMs: number; // the quiet period after which the server exits
}

/** One call, as the front sent it: what the hook process would have had. */
export interface ServerRequest {
  key: string; // the server it was meant for: bundle hash, node version, arguments
  cwd: string;
  env: Record<string, string>;
  umask: number;
  stdin: string; // the payload, read to its end within the front's bounds
}

/** The answer to one request: what the hook process would have written, and its exit status. */
export type AnswerRequest = (request: ServerRequest) => Promise<HookOutput>;

const maxRequestBytes = 16 * 1024 * 1024; // a 4 MiB payload and its environment, with room
const probeBoundMs = 500; // a server that holds the name must answer a ping within this
const ownershipCheckMs = 1000; // how often the server checks the socket path is still its own
const goBoundMs = 1000; // a caller that neither says go nor goes within this, once its turn came, is dropped

/**
 * Runs the verdict server until its quiet period passes or another server takes its name. Warms
 * the guard first, then takes the socket over unless a healthy server already holds it (a ping it
 * answers, not marked hung): it listens on a name of its own and renames that onto the socket,
 * which replaces a stale or hung one at once. Calls are answered one at a time, each in the
 * process state of the call (cwd, environment, umask), so that a verdict depends on nothing the
 * server saw before.
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
  try {
    await warmUp?.();
  } catch {
    // a warm-up that fails leaves the first call to warm the guard
  }
  if (await holdsHealthyServer(place)) return started();
  await listen(place, answer, started);
}

async function holdsHealthyServer(place: ServePlace): Promise<boolean> {
  let ino: number;
  try {
    ino = lstatSync(place.socket).ino;
  } catch {
    return false;
  }
  try {
    if (readFileSync(`${place.socket}.hung`, 'utf8') === String(ino)) return false;
  } catch {
    // not marked hung
  }
  return pingVerdictServer(place.socket, place.key, probeBoundMs);
}

/**
 * True when the verdict server at `socket` answers a ping with `key` within `boundMs` (doctor's
 * check, and a starting server's look at the one holding its name). Never rejects.
 */
export async function pingVerdictServer(socket: string, key: string, boundMs: number): Promise<boolean> {
  const reply = await exchange(socket, { v: 1, key, ping: true }, boundMs);
  return isJsonObject(reply) && reply.key === key;
}

function exchange(socket: string, request: unknown, boundMs: number): Promise<unknown> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const connection = connect(socket);
    const finish = (value: unknown): void => {
      clearTimeout(timer);
      connection.destroy();
      resolve(value);
    };
    const timer = setTimeout(() => finish(undefined), boundMs);
    connection.on('connect', () => connection.end(`${JSON.stringify(request)}\n`));
    connection.on('data', (chunk: Buffer) => chunks.push(chunk));
    connection.on('end', () => {
      try {
        finish(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        finish(undefined);
      }
    });
    connection.on('error', () => finish(undefined));
  });
}

function listen(place: ServePlace, answer: AnswerRequest, onListening: () => void): Promise<void> {
  return new Promise((resolve) => {
    let queue: Promise<void> = Promise.resolve();
    let ownIno = -1;
    let stopping = false;
    const server = createServer({ allowHalfOpen: true }, (connection) => {
      idle.refresh();
      readRequest(connection, (request, caller) => {
        if (request === null || (request !== 'ping' && request.key !== place.key))
          return void connection.destroy();
        if (request === 'ping') return void connection.end(`${JSON.stringify({ key: place.key })}\n`);
        queue = queue.then(() => answerOne(connection, request, caller));
      });
      // The acknowledgement, at once: this server runs (a caller that must give up waiting knows it
      // is busy, not hung). JSON allows the space before the reply.
      connection.write(' ');
    });
    const answerOne = async (connection: Socket, request: ServerRequest, caller: Caller): Promise<void> => {
      // Its turn: the call says go if it still waits; one that gave up answers itself, never twice.
      if (caller.gone || connection.destroyed) return void connection.destroy();
      connection.write('?');
      if (!(await caller.go())) return void connection.destroy();
      let reply: Reply;
      try {
        reply = await answerInCallState(request, answer, place.folder);
      } catch {
        reply = { doubt: 'threw' }; // the call judges itself; the queue goes on
      }
      idle.refresh();
      connection.on('error', () => undefined);
      connection.end(`${JSON.stringify({ key: place.key, ...reply })}\n`);
    };
    const stop = (): void => {
      if (stopping) return;
      stopping = true;
      clearTimeout(idle);
      clearInterval(ownership);
      server.close();
      if (ownsName()) rmSync(place.socket, { force: true });
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
        renameSync(ownName, place.socket);
        ownIno = lstatSync(place.socket).ino;
        rmSync(`${place.socket}.hung`, { force: true });
      } catch {
        dropOwnName();
        stop();
        return;
      }
      // Unref'd: the listening server and the idle timer keep the process alive, this does not.
      ownership = setInterval(() => {
        if (!ownsName()) stop(); // replaced (a newer server, or a hung mark acted on) or removed
      }, ownershipCheckMs);
      ownership.unref();
      onListening();
    });
  });
}

/** The caller of one request, after it was sent: gone (it gave up), or go (it waits for this server's answer). */
interface Caller {
  gone: boolean;
  go: () => Promise<boolean>; // true once the caller says go; false when it goes, or says nothing
}

// One request per connection, one line (the ping's caller half-closes after it; a call's does not,
// so that its end says it gave up). null: not a request to answer.
function readRequest(
  connection: Socket,
  received: (request: ServerRequest | 'ping' | null, caller: Caller) => void,
): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let read = false;
  let saidGo = false;
  let changed: (() => void) | undefined;
  const caller: Caller = {
    gone: false,
    go: () =>
      new Promise((resolve) => {
        const decide = (): void => {
          if (!saidGo && !caller.gone) return;
          clearTimeout(timer);
          changed = undefined;
          resolve(saidGo);
        };
        const timer = setTimeout(() => {
          changed = undefined;
          resolve(false);
        }, goBoundMs);
        changed = decide;
        decide();
      }),
  };
  const leave = (): void => {
    caller.gone = true;
    changed?.();
  };
  connection.on('error', leave);
  connection.on('close', leave);
  connection.on('end', () => {
    if (!read) {
      read = true;
      received(null, caller);
    }
    leave();
  });
  connection.on('data', (chunk: Buffer) => {
    if (read) {
      if (chunk.includes(0x21)) saidGo = true; // `!`
      changed?.();
      return;
    }
    size += chunk.length;
    if (size > maxRequestBytes) {
      read = true;
      received(null, caller);
      return;
    }
    chunks.push(chunk);
    if (!chunk.includes(0x0a)) return;
    read = true;
    const text = Buffer.concat(chunks).toString('utf8');
    let parsed: unknown;
    try {
      parsed = JSON.parse(text.slice(0, text.indexOf('\n')));
    } catch {
      return received(null, caller);
    }
    received(toRequest(parsed), caller);
  });
}

function toRequest(value: unknown): ServerRequest | 'ping' | null {
  if (!isJsonObject(value) || value.v !== 1) return null;
  if (value.ping === true) return 'ping';
  const { key, cwd, env, umask, stdin } = value;
  if (typeof key !== 'string' || typeof cwd !== 'string' || typeof stdin !== 'string') return null;
  if (typeof umask !== 'number') return null;
  if (!isJsonObject(env) || !Object.values(env).every((entry) => typeof entry === 'string')) return null;
  return { key, cwd, env: env as Record<string, string>, umask, stdin };
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
