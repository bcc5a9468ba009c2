import { writeFile } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { onPath } from '@kit/fail-open';
import { defineGuard, type GuardDefinition, readPayload } from '@kit/gate-approval';
import { realContext } from './context.ts';
import { launcherDoctorLine } from './doctor.ts';
import { evaluate, switchName } from './evaluate.ts';
import { guardName } from './reasons.ts';

/** What the shared CLI (install, explain, doctor, hook) knows of this guard. */
export const guardDefinition: GuardDefinition = defineGuard({
  packageUrl: import.meta.url,
  name: guardName,
  description:
    'Denies a whole-file Read of C# source where RoselineMCP can answer, and names the roseline tool to use.',
  matcher: 'Read',
  switches: [
    {
      name: switchName,
      values: 'off | on',
      doc: 'off (0, false, no, disabled) disables the gate; on (1, true, yes, enabled) enforces it without dnx on PATH.',
    },
  ],
  evaluate: (input, runtime) => evaluate(input, realContext(runtime)),
  // Each explain is a session of its own: a second explain of the same file must not take the escape.
  payloadFor: (path, cwd) =>
    readPayload(isAbsolute(path) ? path : resolve(cwd, path), {
      cwd,
      sessionId: `explain-${process.pid}-${Date.now()}`,
    }),
  // The positive control forces the gate on, so it denies on a machine without dnx: this line says
  // what the gate will do there for real.
  doctorChecks: async (io) => [launcherDoctorLine(io.env, (name, env) => onPath(name, env))],
  positiveControl: async (root) => {
    await writeFile(join(root, 'Control.csproj'), '<Project Sdk="Microsoft.NET.Sdk" />\n');
    await writeFile(join(root, 'Control.cs'), 'class Control {}\n');
    return {
      payload: readPayload(join(root, 'Control.cs'), {
        cwd: root,
        sessionId: `doctor-${process.pid}-${Date.now()}`,
      }),
      // on: the control must deny on a machine without dnx; the temp folder keeps its marker in the tree.
      env: { [switchName]: 'on', TMPDIR: root, TEMP: root, TMP: root },
    };
  },
});
