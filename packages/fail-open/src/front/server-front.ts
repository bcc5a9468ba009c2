// The front of a bundle built with a verdict server (hookBundle's `verdictServer`), built by the
// bundler into the head of the bundle from these modules. It reads the payload, asks the user's
// verdict server through its mailbox, and writes the reply as its own. The server is this same
// bundle, started once, holding the guard and mvdan-sh warm. On any doubt (no server, a server
// gone, no reply within the bound, a reply that is not one) the body runs here, as it would without
// a server, with the payload handed over. The first call that finds no server starts one. Never throws.
import {
  callTimeOfProcess,
  type FrontHandoff,
  frontHandoffName,
  serveArgument,
  serverStatusArgument,
} from '../bundle-loader.ts';
import { mailboxProtocol } from '../mailbox-protocol.ts';
import { claimedBy, processRuns } from '../process-runs.ts';
import { readBoundedText, type StdinOutcome } from '../read-stdin.ts';
import { writeOutput } from '../write-output.ts';
import { type AskOutcome, ask, type ServedReply } from './ask.ts';
import { type BundleModule, loadBody } from './load-body.ts';
import { type Place, placeOf, placeProblem, startServer } from './place.ts';

/** What the bundle's first line names for its front: its module, file, content hash and variables. */
export interface ServedBundle extends BundleModule {
  hash: string; // of the bundle's front, body and sections: a changed bundle never meets an older server
  environment: readonly string[]; // the runtime's variables and the guard's: all a served call carries
}

// The largest cap a body may set (git-write-gate reads 64 MiB: a model can write a long
// description); the body's runHook applies its own cap to what the front hands it.
const maxStdinBytes = 64 * 1024 * 1024;
// runHook's default: a slower payload is the body's to judge, as it would be without a server.
const stdinBudgetMs = 3000;
const defaultIdleSeconds = 600;

function handOver(bundle: ServedBundle, handoff: FrontHandoff): void {
  (globalThis as Record<symbol, unknown>)[Symbol.for(frontHandoffName)] = handoff;
  loadBody(bundle);
}

/** Runs the front: a call, the server (`--kit-serve-verdicts`), or doctor's status (`--kit-server-status`). */
export function runFront(bundle: ServedBundle): void {
  const args = process.argv.slice(2);
  if (args[0] === serveArgument) {
    process.argv.splice(2, 1); // the server's body sees the arguments of its callers
    serve(bundle, args.slice(1));
    return;
  }
  if (args[0] === serverStatusArgument) {
    printStatus(placeOf(bundle.hash, args.slice(1), process.env));
    return;
  }
  // The call's time, stamped as the front starts: whichever path answers, it judges by this one.
  const calledAt = callTimeOfProcess();
  void readBoundedText(process.stdin, maxStdinBytes, Date.now() + stdinBudgetMs).then((stdin) =>
    answerCall(bundle, { callArgs: args, calledAt }, stdin),
  );
}

// This process is the server: hand the body its place, unless a server cannot run from here.
function serve(bundle: ServedBundle, callArgs: string[]): void {
  const where = placeOf(bundle.hash, callArgs, process.env);
  if ('refused' in where) return; // end quietly
  // The call that started this server made the folder; one gone since (its temp folder removed)
  // is not made again: the server ends.
  if (placeProblem(where.folder) !== null) return;
  const idleSeconds = Number(process.env.KIT_HOOKS_SERVER_IDLE_SECONDS);
  const idleMs = 1000 * (Number.isFinite(idleSeconds) && idleSeconds > 0 ? idleSeconds : defaultIdleSeconds);
  const { folder, mailbox, key } = where;
  handOver(bundle, {
    mode: 'serve',
    folder,
    mailbox,
    key,
    idleMs,
    protocol: mailboxProtocol.version,
  });
}

// doctor's look: the server's state for calls with these arguments, as one JSON line. `listening`:
// the process the mailbox's claim names runs (doctor then pings it through the mailbox). `socket`
// names the mailbox too: the server's name, under the field doctor reads.
function printStatus(where: Place): void {
  const fields =
    'refused' in where
      ? { server: where.refused, socket: null, key: null }
      : { server: serverState(where.folder, where.mailbox), socket: where.mailbox, key: where.key };
  process.stdout.write(`${JSON.stringify(fields)}\n`);
}

function serverState(folder: string, mailbox: string): string {
  const problem = placeProblem(folder);
  if (problem !== null) return problem;
  return processRuns(claimedBy(mailbox, mailboxProtocol.claim)) ? 'listening' : 'none';
}

/** The call this process was started for: its arguments, and when the host made it. */
interface ThisCall {
  callArgs: string[];
  calledAt: number;
}

// One call: served when the server answers, else judged here by the body.
function answerCall(bundle: ServedBundle, call: ThisCall, stdin: StdinOutcome): void {
  const inProcess = (why: string, waitedMs?: number): void =>
    handOver(bundle, {
      mode: 'call',
      stdin,
      calledAt: call.calledAt,
      fields:
        waitedMs === undefined
          ? { path: 'in-process', server: why }
          : { path: 'in-process', server: why, serverMs: waitedMs },
    });
  if (!stdin.ok) {
    inProcess('stdin');
    return;
  }
  const outcome = askServer(bundle, call, stdin.value);
  if ('served' in outcome) writeReply(outcome.served);
  else inProcess(outcome.why, outcome.waitedMs);
}

// Finds this bundle's server and asks it; starts one where none runs (or it ended mid-call).
function askServer(bundle: ServedBundle, { callArgs, calledAt }: ThisCall, payload: string): AskOutcome {
  const where = placeOf(bundle.hash, callArgs, process.env);
  if ('refused' in where) return { why: where.refused };
  const { folder, mailbox, key } = where;
  const problem = placeProblem(folder);
  if (problem === 'none') {
    startServer(bundle.file, folder, mailbox, callArgs);
    return { why: 'none' };
  }
  if (problem !== null) return { why: problem }; // never start a server in, or change, a folder that is not safe
  const serverPid = claimedBy(mailbox, mailboxProtocol.claim);
  if (serverPid === 0 || !processRuns(serverPid)) {
    startServer(bundle.file, folder, mailbox, callArgs); // a mailbox no live server claims: a new one takes it
    return { why: serverPid === 0 ? 'none' : 'stale' };
  }
  const { environment } = bundle;
  const outcome = ask({ mailbox, key, callArgs, payload, environment, calledAt }, serverPid);
  if ('why' in outcome && outcome.serverGone === true) startServer(bundle.file, folder, mailbox, callArgs);
  return outcome;
}

// Written straight to the descriptors (writeOutput): most replies are silent and touch neither
// stream. Once out, the process ends at once (what is left of the event loop is stdin's closing).
function writeReply(reply: ServedReply): void {
  process.exitCode = reply.exitCode;
  void Promise.all([writeOutput(undefined, 1, reply.stdout), writeOutput(undefined, 2, reply.stderr)]).then(
    () => process.exit(reply.exitCode),
  );
}
