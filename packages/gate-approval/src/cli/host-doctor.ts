import type { DoctorPart } from './doctor-part.ts';

const unguarded = ' (until then every call gets no opinion)';

/**
 * The doctor's part for a host other than Claude Code: the entry must be exactly the one install
 * writes; the host runs its command through its shell, and `node` in it must be on PATH; after the
 * control come the host's own checks (Codex's trust, Copilot's overlap with Claude Code's hooks).
 */
export const hostDoctor: DoctorPart = {
  installHint: (guard, wiring, scope) => `run \`${guard.name} install --host ${wiring.host} --${scope}\``,
  surroundings: async () => ({ lines: [], twin: null, elsewhere: null }),
  readEntry: async ({ guard, wiring, where, hint }, entry) => {
    const expected = wiring.findOwn(
      wiring.planInstall({}, guard, where.handlerArg, { strict: false }).document,
      guard.name,
    )[0];
    const asInstalled =
      expected !== undefined &&
      entry.matcher === expected.matcher &&
      JSON.stringify(entry.handler) === JSON.stringify(expected.handler);
    if (!asInstalled || entry.command === undefined || entry.timeoutMs === undefined)
      return {
        checks: [
          {
            ok: false,
            text: `the ${guard.name} entry in ${where.settingsPath} is not the one install writes (matcher ${expected?.matcher}, \`${expected?.command}\`): ${hint} to upgrade it`,
          },
        ],
        run: null,
      };
    const [shell = '', ...shellArgs] = wiring.runsThrough;
    return {
      checks: [
        {
          ok: true,
          text: `${wiring.title} entry in ${where.settingsPath}: matcher ${entry.matcher}, \`${entry.command}\`, timeout ${entry.timeoutMs / 1000} s`,
        },
      ],
      run: {
        program: 'node',
        command: shell,
        args: [...shellArgs, entry.command],
        shown: entry.command,
        bundleFile: where.bundlePath,
        timeoutMs: entry.timeoutMs,
        hostEnv: {},
        cwd: where.projectDir ?? '',
        unguarded,
      },
    };
  },
  afterControl: async () => [],
  closing: async ({ guard, wiring, scope, where, io }, entry, _checks, sound) =>
    sound && wiring.hostChecks ? wiring.hostChecks({ guard, scope, where, entry, io }) : [],
};
