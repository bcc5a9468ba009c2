import type { Segment } from '@kit/shell-segments';
import { unwrapLaunchers } from '@kit/shell-segments';
import type { SilencingRule } from '../rule.ts';
import { allShells } from '../shell.ts';

/** The override's variables, current name first; either one silences the call. */
export const overrideVariables: readonly string[] = ['EXIT_STATUS_GUARD_OVERRIDE', 'PIPE_GUARD_OVERRIDE'];

const declarations = new Set(['export', 'declare', 'typeset', 'local', 'readonly']);

function isNonBlank(value: string | null, text: string): boolean {
  // A value only known at run time ($REASON) was written on purpose: it counts.
  if (value === null) return text.slice(text.indexOf('=') + 1).trim() !== '';
  return value.trim() !== '';
}

function setsOverride(segment: Segment): boolean {
  for (const assign of segment.assigns) {
    if (assign.indexed || !overrideVariables.includes(assign.name)) continue;
    if (isNonBlank(assign.value, assign.text)) return true;
  }
  const { assigns: operands } = unwrapLaunchers(segment.argv);
  for (const operand of operands) {
    if (overrideVariables.includes(operand.name) && operand.value.trim() !== '') return true;
  }
  // export EXIT_STATUS_GUARD_OVERRIDE=reason: its own statement, like a bare assignment.
  const [builtin, ...rest] = segment.argv;
  if (builtin?.value && declarations.has(builtin.value)) {
    for (const word of rest) {
      const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(word.text);
      if (
        match &&
        overrideVariables.includes(match[1] as string) &&
        isNonBlank(word.value === null ? null : (match[2] as string), word.text)
      )
        return true;
    }
  }
  return false;
}

/**
 * Rule 0, `override`: a segment whose leading assignments set EXIT_STATUS_GUARD_OVERRIDE (1.x:
 * PIPE_GUARD_OVERRIDE) to a non-blank value, inline or as its own statement, or as an env / sudo
 * operand, silences the call. A quoted name or `=`, a subscript, an empty value, or the text as an
 * argument is not an assignment.
 */
export const override: SilencingRule<'override'> = {
  effect: 'silence',
  id: 'override',
  find: ({ top }) => allShells(top).some((shell) => shell.segments.some(setsOverride)),
};
