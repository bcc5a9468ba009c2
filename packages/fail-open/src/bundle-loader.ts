// The loader at the head of every kit hook bundle (hookBundle in the workspace's tsup.base.ts puts it
// there, then the sections). It is written here as functions so that TypeScript checks it, and
// shipped as their text: `bundleLoaderSource` prints them into the bundle, where they run before,
// and usually instead of, the bundle's own code. So each function below is self-contained: it
// uses nothing but its parameters and Node's globals, and what it loads it loads through `load`
// (a bare `require` would be rewritten by the bundler that builds this module).

import { carriedEnvironment, runtimeVariables } from './call-environment.ts';
import { type MailboxProtocol, mailboxProtocol } from './mailbox-protocol.ts';
import { nextWaitStep, type WaitBounds, type WaitFacts, type WaitStep, waitBounds } from './wait-policy.ts';

/** What the front decides by: the wait policy, and which variables a served call carries. */
interface FrontPolicy {
  nextWaitStep: (facts: WaitFacts, bounds: WaitBounds) => WaitStep;
  bounds: WaitBounds;
  carriedEnvironment: typeof carriedEnvironment;
  environment: readonly string[]; // the runtime's variables and the guard's
  protocol: MailboxProtocol; // the mailbox's version and file names, as the server reads them
}

/** What the loader hands the bundle's body, under `Symbol.for('kit-hooks.front')` on globalThis. */
export type FrontHandoff =
  | {
      mode: 'call'; // answer this call in process
      stdin: FrontStdin; // the payload as the front read it
      fields: Record<string, string | number>; // for the trace line: which path answered, why not the server
    }
  | {
      mode: 'serve'; // this process is the verdict server
      folder: string; // the per-user folder, checked: owned by the user, mode 0700
      socket: string; // the socket path to take over: the server's name, which answers pings
      mailbox: string; // the folder calls leave their requests in (verdict-server.ts)
      key: string; // what a request must name: bundle hash, node version, arguments
      idleMs: number; // the quiet period after which the server exits
      protocol: number; // the front's mailbox version: a body of another one does not serve it
    };

/** The payload as the front read it: runHook's StdinOutcome, built without importing it. */
export type FrontStdin =
  | { ok: true; value: string }
  | {
      ok: false;
      reason: 'stdin-too-large' | 'stdin-timeout' | 'stdin-error';
      message: string;
      partial: string;
    };

/** The name of the global the loader hands over on. */
export const frontHandoffName = 'kit-hooks.front';

/** The argument that turns a bundle into its verdict server (the front removes it before the body runs). */
export const serveArgument = '--kit-serve-verdicts';

/** The argument that makes a bundle print its verdict server's state as one JSON line, and nothing else. */
export const serverStatusArgument = '--kit-server-status';

type Load = (id: string) => unknown;
type CompilingModule = { _compile: (source: string, filename: string) => void };

/**
 * The plain loader: it turns Node's compile cache on (Node 22 and later) in the user's own cache
 * folder, then compiles the bundle's body from its comment under this file's name, so that the
 * cache keeps its compiled form between calls. Node keys that cache by its version, V8's flags and
 * a hash of the body's text, and checks its own data: a cache made under other flags, for another
 * body or damaged is not used, and nothing but the body's own text ever runs. Where the folder is
 * not the user's own, or cannot be made, the body compiles as it would have inline. Nothing here
 * may throw but the body itself.
 */
function plainLoader(load: Load, self: CompilingModule, file: string): void {
  const fs = load('node:fs') as typeof import('node:fs');
  const bodyMarker = '/*kit-hook-section:body:';
  // os.tmpdir()'s POSIX rule, without loading node:os on every call (about 1.5 ms).
  const tempFolder = (): string => {
    if (process.platform === 'win32') return (load('node:os') as typeof import('node:os')).tmpdir();
    const env = process.env;
    const named = env.TMPDIR || env.TMP || env.TEMP || '/tmp';
    return named.length > 1 && named.endsWith('/') ? named.slice(0, -1) : named;
  };
  // The cache is used only in a folder no other user could have written to.
  const ownCacheFolder = (): string | undefined => {
    try {
      const temp = tempFolder();
      if (!temp.startsWith('/') && process.platform !== 'win32') return undefined; // a relative TMPDIR
      const uid = typeof process.getuid === 'function' ? process.getuid() : null;
      const folder = `${temp}/kit-code-cache-${uid === null ? 'user' : uid}`;
      // Never the temp folder itself: that one is the user's. existsSync first: it does not throw,
      // and almost every call finds the folder there.
      if (!fs.existsSync(folder)) {
        try {
          fs.mkdirSync(folder, { mode: 0o700 });
        } catch {
          // made meanwhile (judged below), or no temp folder: then lstat throws and there is no cache
        }
      }
      const stat = fs.lstatSync(folder);
      if (!stat.isDirectory()) return undefined;
      if (uid !== null && (stat.uid !== uid || (stat.mode & 0o022) !== 0)) return undefined;
      return folder;
    } catch {
      return undefined;
    }
  };
  const { enableCompileCache } = load('node:module') as { enableCompileCache?: (dir: string) => unknown };
  const folder = typeof enableCompileCache === 'function' ? ownCacheFolder() : undefined; // Node before 22.1: none
  if (folder !== undefined) {
    try {
      enableCompileCache?.(folder);
    } catch {
      // no compile cache: the body compiles as usual
    }
  }
  const text = fs.readFileSync(file, 'latin1');
  const start = text.lastIndexOf(bodyMarker) + bodyMarker.length;
  const body = Buffer.from(text.slice(start, text.indexOf('*/', start)), 'base64').toString('utf8');
  // The body runs as this module: its require, __filename and module are this file's own.
  self._compile(body, file);
}

/**
 * The front of a bundle built with a verdict server (hookBundle's `verdictServer`). It reads the
 * payload, then asks the user's verdict server for the answer through its mailbox, and writes the
 * reply as its own. The server is this same bundle, started once, holding the guard and mvdan-sh
 * warm. On any doubt (no server, a stale or foreign socket, no reply within the bound, a reply
 * that is not one) the body runs here, as it would without a server, with the payload handed over.
 * The first call that finds no server starts one, detached. Never throws.
 */
function verdictServerFront(
  load: Load,
  self: CompilingModule,
  file: string,
  contentHash: string,
  runBody: (load: Load, self: CompilingModule, file: string) => void,
  { nextWaitStep, bounds, carriedEnvironment, environment, protocol }: FrontPolicy,
): void {
  const fs = load('node:fs') as typeof import('node:fs');
  const handoffKey = Symbol.for('kit-hooks.front');
  // The largest cap a body may set (git-write-gate reads 64 MiB: a model can write a long
  // description); the body's runHook applies its own cap to what the front hands it.
  const maxStdinBytes = 64 * 1024 * 1024;
  // runHook's default: a slower payload is the body's to judge, as it would be without a server.
  const stdinBudgetMs = 3000;
  const startingFreshMs = 10_000; // a start marker younger than this: a server is on its way
  const defaultIdleSeconds = 600;
  const args = process.argv.slice(2);
  const serving = args[0] === '--kit-serve-verdicts';
  if (serving) process.argv.splice(2, 1); // the server's body sees the arguments of its callers
  // The server, and the status of a call with these arguments, are keyed by the calls' own arguments.
  const status = args[0] === '--kit-server-status';
  const callArgs = serving || status ? args.slice(1) : args;
  const env = process.env;

  const handOver = (handoff: FrontHandoff): void => {
    (globalThis as Record<symbol, unknown>)[handoffKey] = handoff;
    runBody(load, self, file);
  };

  // FNV-1a, 32 bits: a short stable name for the arguments and V8's flags, without node:crypto.
  const shortHash = (text: string): string => {
    let hash = 0x811c9dc5;
    for (let i = 0; i < text.length; i++) {
      hash ^= text.charCodeAt(i);
      hash = Math.imul(hash, 0x01000193) >>> 0;
    }
    return hash.toString(16).padStart(8, '0');
  };

  // Where this bundle's server listens, or why no server can be used from here.
  type Place =
    | { folder: string; socket: string; mailbox: string; key: string; uid: number }
    | { refused: string };
  const place = (): Place => {
    if (process.platform === 'win32' || typeof process.getuid !== 'function')
      return { refused: 'unsupported' };
    const switchValue = (env.KIT_HOOKS_SERVER ?? '').trim().toLowerCase();
    if (['off', '0', 'false', 'no', 'disabled'].includes(switchValue)) return { refused: 'off' };
    const named = env.TMPDIR || env.TMP || env.TEMP || '/tmp';
    const temp = named.length > 1 && named.endsWith('/') ? named.slice(0, -1) : named;
    if (!temp.startsWith('/')) return { refused: 'relative-temp' };
    const uid = process.getuid();
    const folder = `${temp}/kit-hooks-${uid}`;
    const flags = JSON.stringify([callArgs, process.execArgv, env.NODE_OPTIONS ?? '']);
    const key = `${contentHash}-${process.version}-${shortHash(flags)}`;
    const socket = `${folder}/${key}.sock`;
    if (Buffer.byteLength(socket) > 100) return { refused: 'long-path' }; // sun_path holds 104-108 bytes
    return { folder, socket, mailbox: `${folder}/${key}.box`, key, uid };
  };

  // The folder is the user's own, and no one else may enter it: then only the user reaches the socket.
  const folderProblem = (folder: string, uid: number): string | null => {
    let stat: import('node:fs').Stats;
    try {
      stat = fs.lstatSync(folder);
    } catch {
      return 'none';
    }
    if (!stat.isDirectory() || stat.uid !== uid || (stat.mode & 0o077) !== 0) return 'unsafe-folder';
    return null;
  };

  const startServer = (folder: string, socket: string, uid: number): void => {
    try {
      // The per-user folder only, never the temp folder it is in: that one is the user's (or a
      // test's, which a server starting late must not bring back once it has been removed).
      try {
        fs.mkdirSync(folder, { mode: 0o700 });
      } catch {
        // there already, or no temp folder to make it in: judged just below
      }
      if (folderProblem(folder, uid) !== null) return;
      const starting = `${socket}.starting`;
      try {
        fs.closeSync(fs.openSync(starting, 'wx', 0o600));
      } catch {
        // Another call is starting one, unless its marker is old (that start failed): then this one does.
        if (Date.now() - fs.lstatSync(starting).mtimeMs < startingFreshMs) return;
        const now = new Date();
        fs.utimesSync(starting, now, now);
      }
      const { spawn } = load('node:child_process') as typeof import('node:child_process');
      const child = spawn(
        process.execPath,
        [...process.execArgv, file, '--kit-serve-verdicts', ...callArgs],
        {
          cwd: folder,
          detached: true,
          stdio: 'ignore',
          env,
        },
      );
      child.on('error', () => undefined);
      child.unref();
    } catch {
      // no server this time: the next call that finds none tries again
    }
  };

  // What the server replied, if it is a reply of this bundle's server.
  type Reply = { stdout: string; stderr: string; exitCode: 0 | 2 } | { problem: string };
  const readReply = (text: string, key: string): Reply => {
    let reply: unknown;
    try {
      reply = JSON.parse(text);
    } catch {
      return { problem: 'malformed' };
    }
    if (typeof reply !== 'object' || reply === null || Array.isArray(reply)) return { problem: 'malformed' };
    const fields = reply as Record<string, unknown>;
    if (fields.key !== key) return { problem: 'wrong-version' };
    if (typeof fields.doubt === 'string') return { problem: 'server-doubt' };
    const { stdout, stderr, exitCode } = fields;
    if (typeof stdout !== 'string' || typeof stderr !== 'string' || (exitCode !== 0 && exitCode !== 2)) {
      return { problem: 'malformed' };
    }
    return { stdout, stderr, exitCode };
  };

  const ask = (
    payload: string,
    answered: (reply: { stdout: string; stderr: string; exitCode: 0 | 2 }) => void,
    fallBack: (why: string, waitedMs?: number) => void,
  ): void => {
    const where = place();
    if ('refused' in where) {
      fallBack(where.refused);
      return;
    }
    const { folder, socket, mailbox, key, uid } = where;
    const problem = folderProblem(folder, uid);
    if (problem === 'none') {
      startServer(folder, socket, uid);
      fallBack('none');
      return;
    }
    if (problem !== null) {
      fallBack(problem); // never start a server in, or change, a folder that is not safe
      return;
    }
    // The server's pid, in its claim on the mailbox: one that ended left its claim behind, and a
    // call need not wait to know it. On Linux its state too: a server killed under an init that
    // reaps no one stays a zombie. This is the one idea of "alive": the socket is only a name.
    const alive = (pid: number): boolean => {
      if (!(pid > 0)) return false;
      try {
        if (process.platform !== 'linux') return process.kill(pid, 0);
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'latin1');
        const state = stat.charAt(stat.lastIndexOf(')') + 2);
        return state !== 'Z' && state !== 'X';
      } catch {
        return false;
      }
    };
    const serverPidNow = (): number => {
      try {
        return Number(fs.readFileSync(`${mailbox}/${protocol.claim}`, 'latin1'));
      } catch {
        return 0; // no claim: no server serves the mailbox
      }
    };
    let serverPid = serverPidNow();
    if (serverPid === 0 || !alive(serverPid)) {
      startServer(folder, socket, uid); // a mailbox no live server claims: a new one takes it
      fallBack(serverPid === 0 ? 'none' : 'stale');
      return;
    }
    let cwd: string;
    try {
      cwd = process.cwd();
    } catch {
      fallBack('no-cwd');
      return;
    }
    const umask = process.umask(0o077);
    process.umask(umask);
    // Only the variables the runtime and the guard read, and an expiry: a request whose call gave
    // up (or was killed) is never judged (verdict-server.ts drops it).
    const askedAt = Date.now();
    const carried = carriedEnvironment(env, environment);
    const expires = askedAt + bounds.takenMs;
    const request = `${JSON.stringify({ v: protocol.version, key, args: callArgs, cwd, umask, env: carried, expires, stdin: payload })}\n`;

    // The exchange is files, all of it synchronous: the call leaves `<id>.req` in the mailbox
    // (written in its work folder first, then renamed in); the server takes it by renaming it to
    // `work/<id>.taken`, and answers in `work/<id>.reply`. A call gives up only by withdrawing its
    // request, a rename of its own: exactly one of the two renames succeeds, so a call is answered
    // once, by the server or in process. What it does next is nextWaitStep's (wait-policy.ts).
    const id = `${process.pid}-${Date.now().toString(36)}`;
    const requestFile = `${mailbox}/${id}${protocol.request}`; // the only file the server is woken for
    const inWork = (suffix: string): string => `${mailbox}/${protocol.work}/${id}${suffix}`;
    const remove = (file: string): void => {
      try {
        fs.unlinkSync(file);
      } catch {
        // gone already
      }
    };
    try {
      fs.writeFileSync(inWork(protocol.writing), request, { mode: 0o600 });
      fs.renameSync(inWork(protocol.writing), requestFile);
    } catch {
      remove(inWork(protocol.writing));
      fallBack('error', Date.now() - askedAt);
      return;
    }
    // A warm reply takes about a millisecond: the mailbox is looked at every 0.1 ms for the first
    // 5 ms, then every 1 ms until the request is taken, then every 5 ms; a look is one failed open.
    const napper = new Int32Array(new SharedArrayBuffer(4));
    const withdraw = (): boolean => {
      try {
        fs.renameSync(requestFile, inWork(protocol.withdrawn));
        remove(inWork(protocol.withdrawn));
        return true;
      } catch {
        return false; // taken, or the mailbox is gone
      }
    };
    let taken = false;
    for (;;) {
      const waitedMs = Date.now() - askedAt;
      // A replacement names itself only once the server it replaces has ended; the call gives up
      // only when the server named now has ended too.
      if (!alive(serverPid)) serverPid = serverPidNow();
      const serverAlive = alive(serverPid);
      const takenThere = taken && fs.existsSync(inWork(protocol.taken));
      let text: string | null = null;
      try {
        text = fs.readFileSync(inWork(protocol.reply), 'utf8');
      } catch {
        // not yet
      }
      const step = nextWaitStep(
        { waitedMs, serverAlive, taken, takenThere, replyThere: text !== null },
        bounds,
      );
      if (step === 'reply' && text !== null) {
        remove(inWork(protocol.reply));
        const reply = readReply(text, key);
        if ('problem' in reply) fallBack(reply.problem, Date.now() - askedAt);
        else answered(reply);
        return;
      }
      if (step === 'withdraw-busy' || step === 'withdraw-gone') {
        if (withdraw()) {
          if (step === 'withdraw-gone') startServer(folder, socket, uid);
          fallBack(step === 'withdraw-gone' ? 'gone' : 'busy', waitedMs);
          return;
        }
        taken = true; // the server's to answer now
        continue;
      }
      if (step === 'gone' || step === 'dropped' || step === 'slow') {
        if (step !== 'slow') remove(inWork(protocol.taken));
        if (step === 'gone') startServer(folder, socket, uid);
        fallBack(step, waitedMs);
        return;
      }
      Atomics.wait(napper, 0, 0, waitedMs < 5 ? 0.1 : taken ? 5 : 1);
    }
  };

  const readStdin = (done: (stdin: FrontStdin) => void): void => {
    const stream = process.stdin;
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const text = (): string => {
      const decoded = Buffer.concat(chunks).toString('utf8');
      return decoded.charCodeAt(0) === 0xfeff ? decoded.slice(1) : decoded;
    };
    const settle = (stdin: FrontStdin, release: boolean): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      stream.removeAllListeners('data');
      stream.on('error', () => undefined);
      if (release) {
        stream.pause();
        stream.destroy();
      }
      done(stdin);
    };
    const giveUp = (reason: 'stdin-too-large' | 'stdin-timeout' | 'stdin-error', message: string): void =>
      settle({ ok: false, reason, message, partial: text() }, true);
    // As for the reply: a payload that has arrived by the deadline is read, however late this
    // process was scheduled (setImmediate runs after the poll for I/O).
    const timer = setTimeout(
      () => setImmediate(() => giveUp('stdin-timeout', 'stdin did not end by the deadline')),
      stdinBudgetMs,
    );
    timer.unref();
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxStdinBytes) {
        chunks.push(chunk.subarray(0, chunk.length - (size - maxStdinBytes)));
        giveUp('stdin-too-large', `more than ${maxStdinBytes} bytes`);
        return;
      }
      chunks.push(chunk);
    });
    stream.once('end', () => settle({ ok: true, value: text() }, false));
    stream.once('error', () => giveUp('stdin-error', 'the stream failed'));
    stream.once('close', () =>
      settle(
        { ok: false, reason: 'stdin-error', message: 'the stream closed before its end', partial: text() },
        false,
      ),
    );
  };

  if (serving) {
    const where = place();
    if ('refused' in where) return; // a server cannot run from here: end quietly
    const idleSeconds = Number(env.KIT_HOOKS_SERVER_IDLE_SECONDS);
    const idleMs =
      1000 * (Number.isFinite(idleSeconds) && idleSeconds > 0 ? idleSeconds : defaultIdleSeconds);
    // The call that started this server made the folder; one gone since (its temp folder removed)
    // is not made again: the server ends.
    if (folderProblem(where.folder, where.uid) !== null) return;
    handOver({
      mode: 'serve',
      folder: where.folder,
      socket: where.socket,
      mailbox: where.mailbox,
      key: where.key,
      idleMs,
      protocol: protocol.version,
    });
    return;
  }

  if (status) {
    const where = place();
    const socket = 'refused' in where ? null : where.socket;
    const key = 'refused' in where ? null : where.key; // what a ping must name (doctor pings it)
    const state =
      'refused' in where
        ? where.refused
        : (folderProblem(where.folder, where.uid) ?? (fs.existsSync(where.socket) ? 'listening' : 'none'));
    process.stdout.write(`${JSON.stringify({ server: state, socket, key })}\n`);
    return;
  }

  readStdin((stdin) => {
    // serverMs: how long this call spent on the socket before it answered in process.
    const inProcess = (why: string, waitedMs?: number): void =>
      handOver({
        mode: 'call',
        stdin,
        fields:
          waitedMs === undefined
            ? { path: 'in-process', server: why }
            : { path: 'in-process', server: why, serverMs: waitedMs },
      });
    if (!stdin.ok) {
      inProcess('stdin');
      return;
    }
    let done = false;
    ask(
      stdin.value,
      (reply) => {
        if (done) return;
        done = true;
        // Written straight to the descriptors: most replies are silent and touch neither stream,
        // and a stream costs about a millisecond to build. A pipe that is not blocking (EAGAIN)
        // takes the stream's way; a host that stopped reading (EPIPE) has nothing left to be told.
        // Written straight through, the reply is out: the process ends at once (what is left of the
        // event loop is the stdin stream's closing, about half a millisecond).
        const write = (fd: 1 | 2, text: string): boolean => {
          if (text === '') return true;
          const data = Buffer.from(text, 'utf8');
          let written = 0;
          try {
            while (written < data.length) written += fs.writeSync(fd, data, written);
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') return true;
            const stream = fd === 1 ? process.stdout : process.stderr;
            stream.on('error', () => undefined);
            stream.write(data.subarray(written));
            return false;
          }
          return true;
        };
        const outFlushed = write(1, reply.stdout);
        const errFlushed = write(2, reply.stderr);
        process.exitCode = reply.exitCode;
        if (outFlushed && errFlushed) process.exit(reply.exitCode);
      },
      (why, waitedMs) => {
        if (done) return;
        done = true;
        inProcess(why, waitedMs);
      },
    );
  });
}

/**
 * The loader's source, as hookBundle puts it at the head of a bundle. With a `contentHash` (of the
 * bundle's body and sections) it is the verdict-server front, whose socket that hash names, so an
 * upgraded bundle never talks to an old server; without one, the plain loader. `environment` names
 * the variables the guard reads, beyond the runtime's own: a served call carries those alone.
 */
export function bundleLoaderSource(contentHash?: string, environment: readonly string[] = []): string {
  const names = [...new Set([...runtimeVariables, ...environment])];
  const policy = `{ nextWaitStep: ${nextWaitStep.toString()}, bounds: ${JSON.stringify(waitBounds)}, carriedEnvironment: ${carriedEnvironment.toString()}, environment: ${JSON.stringify(names)}, protocol: ${JSON.stringify(mailboxProtocol)} }`;
  const call =
    contentHash === undefined
      ? `(${plainLoader.toString()})(require, module, __filename);`
      : `(${verdictServerFront.toString()})(require, module, __filename, ${JSON.stringify(contentHash)}, ${plainLoader.toString()}, ${policy});`;
  return `'use strict';\n// The kit's hook bundle loader: packages/fail-open/src/bundle-loader.ts. The body rides below in a comment.\n${call}\n`;
}
