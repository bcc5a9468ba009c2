import { isJsonObject, pingVerdictServer, serverStatusArgument } from '@kit/fail-open';
import type { CliIO } from '../guard.ts';
import type { Check } from './check.ts';
import { runProcess } from './run-process.ts';

/** How the host starts the installed hook, as doctor found it. */
export interface ServerProbe {
  command: string; // 'node'
  args: string[]; // [bundle, ...the installed arguments]
  env: Record<string, string | undefined>;
  cwd: string;
  io: CliIO;
}

const probeTimeoutMs = 5000;
const pingBoundMs = 1000;

/**
 * doctor's verdict-server line: the installed bundle, run as the host runs it with
 * `--kit-server-status`, names its socket and whether it may use one; a listening socket is then
 * pinged with the bundle's key. Never a failure: without a server every call answers in process.
 */
export async function verdictServerCheck(probe: ServerProbe): Promise<Check> {
  const run = await runProcess(
    probe.command,
    [...probe.args, serverStatusArgument],
    '',
    probe.env,
    probe.cwd,
    probeTimeoutMs,
  );
  let status: unknown;
  try {
    status = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '');
  } catch {
    status = undefined;
  }
  if (!isJsonObject(status) || typeof status.server !== 'string')
    return { ok: true, text: 'verdict server: this bundle has none (every call answers in process)' };
  const socket = typeof status.socket === 'string' ? status.socket : null;
  const key = typeof status.key === 'string' ? status.key : null;
  switch (status.server) {
    case 'off':
      return { ok: true, text: 'verdict server: off (KIT_HOOKS_SERVER=off): every call answers in process' };
    case 'unsupported':
      return { ok: true, text: 'verdict server: not used on this platform: every call answers in process' };
    case 'unsafe-folder':
      return {
        ok: true,
        warn: true,
        text: `verdict server: not used: the folder of ${socket} is not yours alone (owner and mode 0700 are checked): every call answers in process`,
      };
    case 'none':
      return { ok: true, text: `verdict server: not running; the next call starts one at ${socket}` };
    case 'listening': {
      const answers = socket !== null && key !== null && (await pingVerdictServer(socket, key, pingBoundMs));
      return answers
        ? { ok: true, text: `verdict server: answering at ${socket}` }
        : {
            ok: true,
            warn: true,
            text: `verdict server: ${socket} does not answer; calls answer in process until a new server replaces it`,
          };
    }
    default:
      return { ok: true, text: `verdict server: not used (${status.server}): every call answers in process` };
  }
}
