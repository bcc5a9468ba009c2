import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HookInput } from '@kit/fail-open';
import type { GuardDefinition } from '@kit/gate-approval';
import { realContext } from './context.ts';
import { evaluate, switchName } from './evaluate.ts';
import { guardName } from './reasons.ts';

// guard.ts is bundled into dist/cli.js: the package root is one folder up, the hook bundle beside it.
const packageRoot = new URL('../', import.meta.url);

function readVersion(): string {
  try {
    const manifest: unknown = JSON.parse(readFileSync(new URL('package.json', packageRoot), 'utf8'));
    const version = (manifest as { version?: unknown }).version;
    return typeof version === 'string' ? version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}

/** A Read of `filePath` as the host would send it, in a session of its own so no escape is shared. */
function readPayload(filePath: string, cwd: string, sessionId: string): HookInput {
  return {
    session_id: sessionId,
    cwd,
    hook_event_name: 'PreToolUse',
    tool_name: 'Read',
    tool_input: { file_path: isAbsolute(filePath) ? filePath : resolve(cwd, filePath) },
  };
}

/** What the shared CLI (install, explain, doctor, hook) knows of this guard. */
export const guardDefinition: GuardDefinition = {
  name: guardName,
  version: readVersion(),
  description:
    'Denies a whole-file Read of C# source where RoselineMCP can answer, and names the roseline tool to use.',
  matcher: 'Read',
  bundle: fileURLToPath(new URL('dist/hook.cjs', packageRoot)),
  switches: [
    {
      name: switchName,
      values: 'off | on',
      doc: 'off (0, false, no, disabled) disables the gate; on (1, true, yes, enabled) enforces it without dnx on PATH.',
    },
  ],
  evaluate: (input, runtime) => evaluate(input, realContext(runtime)),
  // Each explain is a session of its own: a second explain of the same file must not take the escape.
  payloadFor: (arg, cwd) => readPayload(arg, cwd, `explain-${process.pid}-${Date.now()}`),
  positiveControl: async () => {
    const root = await mkdtemp(join(tmpdir(), `${guardName}-control-`));
    await writeFile(join(root, 'Control.csproj'), '<Project Sdk="Microsoft.NET.Sdk" />\n');
    await writeFile(join(root, 'Control.cs'), 'class Control {}\n');
    return {
      payload: readPayload(join(root, 'Control.cs'), root, `doctor-${process.pid}-${Date.now()}`),
      // on: the control must deny on a machine without dnx; the temp folder keeps its marker in the tree.
      env: { [switchName]: 'on', TMPDIR: root, TEMP: root, TMP: root },
      cleanup: () => rm(root, { recursive: true, force: true }),
    };
  },
};
