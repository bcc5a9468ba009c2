import { stat } from 'node:fs/promises';
import { onPath } from '@kit/fail-open';
import type { CliIO, GuardDefinition } from '../guard.ts';
import { hostAdapters } from '../hosts/host-adapter.ts';
import type { Check } from './check.ts';
import type { HostWiring } from './host-wiring.ts';
import { runPositiveControl } from './positive-control.ts';
import type { Scope } from './scope.ts';
import { readHostSettings } from './settings-file.ts';

/**
 * doctor's installation lines for a host other than Claude Code: the file reads; exactly one entry
 * of the guard, exactly as install writes it; the bundle is there; `node` is on PATH; the positive
 * control, in the host's payload shape, is denied through the installed command run the way the host
 * runs it (its shell, the handler's timeout); then the host's own checks (Codex's trust).
 */
export async function checkHostInstallation(
  guard: GuardDefinition,
  wiring: HostWiring,
  scope: Scope,
  io: CliIO,
): Promise<Check[]> {
  const where = await wiring.locate(guard, scope, io);
  const read = await readHostSettings(where.settingsPath, wiring.shapeProblem);
  if (!read.ok) return [{ ok: false, text: read.message }];
  const installHint = `run \`${guard.name} install --host ${wiring.host} --${scope}\``;
  if (!read.value.exists)
    return [{ ok: false, text: `${where.settingsPath} does not exist: ${installHint}` }];
  const entries = wiring.findOwn(read.value.document, guard.name);
  const entry = entries[0];
  if (entry === undefined)
    return [{ ok: false, text: `no ${guard.name} handler in ${where.settingsPath}: ${installHint}` }];

  const checks: Check[] = [];
  if (entries.length > 1)
    checks.push({
      ok: false,
      text: `${entries.length} ${guard.name} handlers in ${where.settingsPath}: ${installHint} to keep one`,
    });
  const expected = wiring.findOwn(
    wiring.planInstall({}, guard, where.handlerArg, { strict: false }).document,
    guard.name,
  )[0];
  const asInstalled =
    expected !== undefined &&
    entry.matcher === expected.matcher &&
    JSON.stringify(entry.handler) === JSON.stringify(expected.handler);
  checks.push(
    asInstalled
      ? {
          ok: true,
          text: `${wiring.title} entry in ${where.settingsPath}: matcher ${entry.matcher}, \`${entry.command}\`, timeout ${(entry.timeoutMs ?? 0) / 1000} s`,
        }
      : {
          ok: false,
          text: `the ${guard.name} entry in ${where.settingsPath} is not the one install writes (matcher ${expected?.matcher}, \`${expected?.command}\`): ${installHint} to upgrade it`,
        },
  );
  if (!asInstalled || entry.command === undefined || entry.timeoutMs === undefined) return checks;

  const bundleIsFile = await stat(where.bundlePath).then(
    (s) => s.isFile(),
    () => false,
  );
  checks.push(
    bundleIsFile
      ? { ok: true, text: `bundle ${where.bundlePath}` }
      : {
          ok: false,
          text: `the bundle ${where.bundlePath} is missing: ${installHint} (until then every call gets no opinion)`,
        },
  );
  const node = onPath('node', io.env);
  checks.push(
    node
      ? { ok: true, text: `node resolves to ${node}` }
      : { ok: false, text: '`node` is not on PATH: the hook cannot start, so every call gets no opinion' },
  );
  const [shell, ...shellArgs] = wiring.runsThrough;
  if (bundleIsFile && node && shell !== undefined)
    checks.push(
      await runPositiveControl(guard, hostAdapters[wiring.host], {
        command: shell,
        args: [...shellArgs, entry.command],
        timeoutMs: entry.timeoutMs,
        io,
        shown: entry.command,
      }),
    );
  if (wiring.hostChecks) checks.push(...(await wiring.hostChecks({ guard, scope, where, entry, io })));
  return checks;
}
