import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CliIO, GuardDefinition } from '../guard.ts';
import type { HostAdapter } from '../hosts/host-adapter.ts';
import { readSwitch } from '../switches.ts';
import type { Check } from './check.ts';
import { runProcess } from './run-process.ts';

type PositiveControl = Awaited<ReturnType<GuardDefinition['positiveControl']>>;

/** How the host starts the installed hook: the program, its arguments, the handler's timeout. */
export interface InstalledRun {
  command: string; // 'node' (exec form) or '/bin/bash' (a shell-form host)
  args: string[]; // [bundle] or ['-c', '<the installed command>']
  timeoutMs: number;
  io: CliIO;
  hostEnv?: Record<string, string>; // what the host sets for the hook: CLAUDE_PROJECT_DIR, CLAUDE_PLUGIN_ROOT
  shown?: string; // how the line names what ran; default command and args
}

/**
 * Runs the guard's positive control through the installed command exactly as the host would: the
 * control's payload in the host's own shape on stdin, what the host sets and the control's env over
 * the user's, the payload's cwd, the handler's timeout. ok when the host's deny comes back on stdout
 * at exit 0.
 */
export async function runPositiveControl(
  guard: GuardDefinition,
  adapter: HostAdapter,
  run: InstalledRun,
): Promise<Check> {
  const shown = run.shown ?? `${run.command} ${run.args.join(' ')}`;
  return withPositiveControl(guard, async (control) => {
    const payload = adapter.payloadOf(control.payload);
    if (payload === null)
      return { ok: false, text: `the positive control has no ${adapter.title} payload (${guard.matcher})` };
    const cwd = await controlCwd(control, run.io);
    const result = await runProcess(
      run.command,
      run.args,
      JSON.stringify(payload),
      // The control's deny is doctor's, not the user's: it stays out of the audit trail.
      { ...run.io.env, ...run.hostEnv, ...control.env, KIT_HOOKS_AUDIT: 'off' },
      cwd,
      run.timeoutMs,
    );
    if (result.exitCode === 0 && adapter.isDenyOutput(result.stdout))
      return { ok: true, text: `positive control denied through \`${shown}\`` };
    const detail = result.timedOut
      ? `timed out after ${run.timeoutMs / 1000} s`
      : `exit ${result.exitCode ?? result.signal}, stdout ${JSON.stringify(result.stdout.trim().slice(0, 120))}, stderr ${JSON.stringify((result.stderr.trim().split('\n')[0] ?? '').slice(0, 160))}`;
    return {
      ok: false,
      text: `the positive control did not deny through the installed command (${detail})${offSwitches(guard, run.io)}`,
    };
  });
}

/** The guard's positive control set up in a scratch folder of its own, handed to `use`, then cleaned away. */
export async function withPositiveControl(
  guard: GuardDefinition,
  use: (control: PositiveControl) => Promise<Check>,
): Promise<Check> {
  let scratch: string | null = null;
  let control: PositiveControl;
  try {
    scratch = await mkdtemp(join(tmpdir(), `${guard.name}-control-`));
    control = await guard.positiveControl(scratch);
  } catch (error) {
    if (scratch !== null) await rm(scratch, { recursive: true, force: true }).catch(() => undefined);
    return {
      ok: false,
      text: `the positive control could not be set up: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  try {
    return await use(control);
  } finally {
    await rm(scratch, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** The control's own cwd when it is a folder, else where doctor runs. */
export async function controlCwd(control: PositiveControl, io: CliIO): Promise<string> {
  return typeof control.payload.cwd === 'string' && (await isFolder(control.payload.cwd))
    ? control.payload.cwd
    : io.cwd;
}

/** `; X=off is set` for each of the guard's switches that is off, or '': why a control may not deny. */
export function offSwitches(guard: GuardDefinition, io: CliIO): string {
  const off = guard.switches
    .filter((s) => readSwitch(io.env, s.name, s.legacyNames) === 'off')
    .map((s) => `${s.name}=off is set`);
  return off.length > 0 ? `; ${off.join(', ')}` : '';
}

async function isFolder(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isDirectory(),
    () => false,
  );
}
