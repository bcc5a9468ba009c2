import { type HookInput, readSwitch } from '@kit/gate-approval';

/** The switch and the per-command escape share one name. */
export const switchName = 'GIT_GATE';

/** True when one of the assignments is `GIT_GATE=<off-value>` (`GIT_GATE=off git push`, `env GIT_GATE=0 git push`). */
export function hasEscapeAssignment(assignments: readonly { name: string; value: string | null }[]): boolean {
  return assignments.some(
    (assignment) =>
      assignment.name === switchName &&
      assignment.value !== null &&
      readSwitch({ [switchName]: assignment.value }, switchName) === 'off',
  );
}

// A command that cannot be split into segments keeps the escape only as a literal prefix at its
// very start: an unquoted or plainly quoted off-value, then a blank, then the command.
const startPrefix = /^GIT_GATE=(?:'([^']*)'|"([^"$`\\]*)"|([A-Za-z0-9]+))[ \t]+\S/;

/** True when the command text starts with a `GIT_GATE=<off-value>` prefix (the escape for an unparseable command). */
export function startsWithEscape(command: string): boolean {
  const match = startPrefix.exec(command);
  if (!match) return false;
  const value = match[1] ?? match[2] ?? match[3] ?? '';
  return readSwitch({ [switchName]: value }, switchName) === 'off';
}

/** The main thread is a call with no `agent_id`; only the main thread is offered the escape. */
export function isMainThread(input: HookInput): boolean {
  return input.agent_id === undefined || input.agent_id === '';
}
