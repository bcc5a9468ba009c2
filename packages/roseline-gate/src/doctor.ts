import { type DoctorLine, readSwitch } from '@kit/gate-approval';
import { launcherName, switchName } from './evaluate.ts';

/**
 * Doctor's line on the launcher probe, from doctor's own env: `ok` when `dnx` is on PATH (the path
 * found) or the switch decides without it, `warn` when it is missing and nothing stands in for it,
 * since the gate then never denies. Never a failure: the installation works either way.
 */
export function launcherDoctorLine(
  env: Record<string, string | undefined>,
  findOnPath: (name: string, env: Record<string, string | undefined>) => string | null,
): DoctorLine {
  const gate = readSwitch(env, switchName);
  const found = findOnPath(launcherName, env);
  if (found !== null)
    return {
      level: 'ok',
      text:
        gate === 'off'
          ? `${launcherName} on PATH: ${found}, but ${switchName}=off disables the gate`
          : `${launcherName} on PATH: ${found}: the gate denies a C# Read where it finds a project marker`,
    };
  if (gate === 'on')
    return {
      level: 'ok',
      text: `${launcherName} is not on PATH; ${switchName}=on enforces the gate without it`,
    };
  if (gate === 'off')
    return {
      level: 'ok',
      text: `${launcherName} is not on PATH, and ${switchName}=off disables the gate anyway`,
    };
  return {
    level: 'warn',
    text: `${launcherName} is not on PATH: the gate never denies, every Read passes. Install the .NET 10 SDK (it ships ${launcherName}), or set ${switchName}=on where roseline runs by another route (a roseline-mcp global tool, a hand-added server)`,
  };
}
