// What a kit hook bundle's front and its body say to each other. The front itself is real modules
// (./front/), built by the bundler into the head of every bundle (hook-bundle.ts); this module holds
// only what both sides name: the handoff, and the arguments that turn a bundle into its server.
import type { StdinOutcome } from './read-stdin.ts';

/** What the loader hands the bundle's body, under `Symbol.for('kit-hooks.front')` on globalThis. */
export type FrontHandoff =
  | {
      mode: 'call'; // answer this call in process
      stdin: FrontStdin; // the payload as the front read it
      fields: Record<string, string | number>; // for the trace line: which path answered, why not the server
      calledAt: number; // when the host made the call, as the front stamped it (see callTimeOfProcess)
    }
  | {
      mode: 'serve'; // this process is the verdict server
      folder: string; // the per-user folder, checked: owned by the user, mode 0700
      mailbox: string; // the folder calls leave their requests in (verdict-server.ts): the server's name
      key: string; // what a request must name: bundle hash, node version, arguments
      idleMs: number; // the quiet period after which the server exits
      protocol: number; // the front's mailbox version: a body of another one does not serve it
    };

/** The payload as the front read it: runHook's StdinOutcome. */
export type FrontStdin = StdinOutcome;

/**
 * When the host made the call a hook process was started for: the process's start (a hook process
 * is started for one call), however late its judge runs. The front stamps it as it starts, and every
 * path that answers the call (the server, or the body in process) judges by this one time.
 */
export function callTimeOfProcess(): number {
  return Date.now() - Math.round(process.uptime() * 1000);
}

/** The name of the global the loader hands over on. */
export const frontHandoffName = 'kit-hooks.front';

/** The argument that turns a bundle into its verdict server (the front removes it before the body runs). */
export const serveArgument = '--kit-serve-verdicts';

/** The argument that makes a bundle print its verdict server's state as one JSON line, and nothing else. */
export const serverStatusArgument = '--kit-server-status';
