import type { CliIO, GuardDefinition } from '../guard.ts';
import type { HostName } from '../hosts/host-adapter.ts';
import type { Check } from './check.ts';
import { claudeDoctor } from './claude-doctor.ts';
import type { DoctorContext, DoctorPart } from './doctor-part.ts';
import { runLines } from './hook-run-check.ts';
import { hostDoctor } from './host-doctor.ts';
import type { HostWiring } from './host-wiring.ts';
import type { Scope } from './scope.ts';
import { readHostSettings } from './settings-file.ts';

/** Each host's part of the doctor: Claude Code's (plugins, the exec form, the verdict server) and the shell-form hosts'. */
const doctorParts: Readonly<Record<HostName, DoctorPart>> = {
  claude: claudeDoctor,
  codex: hostDoctor,
  gemini: hostDoctor,
  copilot: hostDoctor,
};

/**
 * doctor's installation lines for one host and scope, one flow for every host: the file reads;
 * exactly one entry of the guard, as install writes it (or what else runs the guard); the bundle is
 * there; the hook's program is on PATH; the positive control is denied through the installed command
 * run the way the host runs it; then the host's own lines.
 */
export async function checkInstallation(
  guard: GuardDefinition,
  wiring: HostWiring,
  scope: Scope,
  io: CliIO,
): Promise<Check[]> {
  const part = doctorParts[wiring.host];
  const where = await wiring.locate(guard, scope, io);
  const context: DoctorContext = {
    guard,
    wiring,
    scope,
    where,
    hint: part.installHint(guard, wiring, scope),
    io,
  };
  const around = await part.surroundings(context);
  const read = await readHostSettings(where.settingsPath, wiring.shapeProblem);
  if (!read.ok) return [{ ok: false, text: read.message }, ...around.lines];
  const entries = read.value.exists ? wiring.findOwn(read.value.document, guard.name) : [];
  const entry = entries[0];
  if (entry === undefined) {
    if (around.elsewhere !== null) return [...(await around.elsewhere()), ...around.lines];
    const text = read.value.exists
      ? `no ${guard.name} handler in ${where.settingsPath}: ${context.hint}`
      : `${where.settingsPath} does not exist: ${context.hint}`;
    return [{ ok: false, text }];
  }

  const checks: Check[] = [...around.lines, ...(around.twin === null ? [] : [around.twin])];
  if (entries.length > 1)
    checks.push({
      ok: false,
      text: `${entries.length} ${guard.name} handlers in ${where.settingsPath}: ${context.hint} to keep one`,
    });
  const reading = await part.readEntry(context, entry);
  checks.push(...reading.checks);
  if (reading.run !== null) checks.push(...(await runLines(context, part, reading.run)));
  checks.push(...(await part.closing(context, entry, checks, reading.run !== null)));
  return checks;
}
