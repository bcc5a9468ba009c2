import {
  cannotJudge,
  deny,
  type HookInput,
  none,
  readInput,
  readSwitch,
  type Verdict,
} from '@kit/gate-approval';
import type { GuardContext } from './context.ts';
import { absoluteFilePath, isCSharpSource, pathFlavorOf } from './csharp-path.ts';
import { readIdentity, takeOrArmEscape } from './escape.ts';
import { findProjectMarker } from './project-marker.ts';
import { buildDenyText, guardName } from './reasons.ts';

/** The switch: off-values disable the gate, on-values stand in for the `dnx` launcher probe. */
export const switchName = 'ROSELINE_GATE';

/** The launcher roseline ships with (`dnx RoselineMCP --yes`): its presence is the evidence the gate needs. */
export const launcherName = 'dnx';

/** The rule id every denial carries. */
export const ruleId = 'csharp-read';

// Arming a marker this close to the runtime's deadline risks a deny that is never written (the
// runtime drops a late verdict), which would leave an escape armed by a fail-open path.
const armingMarginMs = 100;

/**
 * Decides one PreToolUse call: a deny naming the roseline tool for a Read of C# source where roseline
 * can answer, `none` where the gate plainly does not apply, and `cannotJudge` (also no opinion) for
 * every doubt. Touches the world only through `context`; arms or consumes the escape marker.
 */
export function evaluate(input: HookInput, context: GuardContext): Verdict {
  const gate = readSwitch(context.env, switchName);
  if (gate === 'off') return none();
  const read = readInput(input);
  if (read === null || !isCSharpSource(read.file_path)) return none();
  if (gate !== 'on' && context.findOnPath(launcherName, context.env) === null) return none();

  const flavor = pathFlavorOf(read.file_path, context.platform);
  const cwd = typeof input.cwd === 'string' && input.cwd !== '' ? input.cwd : context.cwd;
  const searchCwd = flavor.isAbsolute(cwd) ? cwd : null;
  const file = absoluteFilePath(read.file_path, searchCwd, flavor);
  if (file === null) return cannotJudge('relative-path');
  // After the launcher probe, so a machine without dnx pays nothing for it. A path that names
  // nothing is judged by its name: only something there that is not a file rules the name out.
  const kind = context.pathKind(file);
  if (kind === 'not-a-file') return none();
  if (kind === 'unknown') return cannotJudge('unreadable-path');
  const search = findProjectMarker(flavor.dirname(file), searchCwd, flavor, context.listFolder);
  if (!search.found) return search.reason === 'unmarked' ? none() : cannotJudge(search.reason);

  const sessionId = input.session_id;
  if (typeof sessionId !== 'string' || sessionId === '') return cannotJudge('no-session');
  if (context.deadline !== undefined && context.now() + armingMarginMs > context.deadline)
    return cannotJudge('late');
  const escapeOutcome = takeOrArmEscape(
    context,
    {
      tempFolder: context.tempFolder,
      sessionId,
      identity: readIdentity(read),
      flavor: pathFlavorOf(context.tempFolder, context.platform),
      calledAt: context.calledAt ?? context.now(),
    },
    () => context.now(),
  );
  if (escapeOutcome.kind === 'pass') {
    context.note?.({ escape: ruleId });
    return none();
  }
  if (escapeOutcome.kind === 'unwritable') return cannotJudge('marker-unwritable');

  // Only a .csproj met on the way up is the file's own project; a .sln, or a marker found below
  // the cwd, proves roseline has something to open but not which project holds this file.
  const project = search.kind === 'csproj' && search.via === 'walk-up' ? search.marker : null;
  return deny(guardName, buildDenyText(file, project), ruleId);
}
