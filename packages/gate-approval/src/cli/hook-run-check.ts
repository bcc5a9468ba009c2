import { stat } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import { onPath } from '@kit/fail-open';
import { hostAdapters } from '../hosts/host-adapter.ts';
import type { Check } from './check.ts';
import type { DoctorContext, DoctorPart, HookRun } from './doctor-part.ts';
import { runPositiveControl } from './positive-control.ts';

// The bundle is there, the program resolves, and then the control runs through the installed command.
export async function runLines(context: DoctorContext, part: DoctorPart, run: HookRun): Promise<Check[]> {
  const { hint, io } = context;
  const bundleIsFile = await stat(run.bundleFile).then(
    (s) => s.isFile(),
    () => false,
  );
  const resolved = isAbsolute(run.program) ? run.program : onPath(run.program, io.env);
  const checks: Check[] = [
    bundleIsFile
      ? { ok: true, text: `bundle ${run.bundleFile}` }
      : { ok: false, text: `the bundle ${run.bundleFile} is missing: ${hint}${run.unguarded}` },
    resolved
      ? { ok: true, text: `${run.program} resolves to ${resolved}` }
      : {
          ok: false,
          text: `\`${run.program}\` is not on PATH: the host cannot start the hook${run.unguarded}`,
        },
  ];
  if (!bundleIsFile || !resolved) return checks;
  checks.push(...(await controlLines(context, part, run)));
  return checks;
}

/** The positive control through the installed command, run as the host runs it, then the part's lines after it. */
export async function controlLines(context: DoctorContext, part: DoctorPart, run: HookRun): Promise<Check[]> {
  return [
    await runPositiveControl(context.guard, hostAdapters[context.wiring.host], {
      command: run.command,
      args: run.args,
      timeoutMs: run.timeoutMs,
      io: context.io,
      hostEnv: run.hostEnv,
      ...(run.shown === undefined ? {} : { shown: run.shown }),
    }),
    ...(await part.afterControl(context, run)),
  ];
}
