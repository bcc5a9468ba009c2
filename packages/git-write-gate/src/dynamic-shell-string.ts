import type { Word } from '@kit/shell-segments';

const shells = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh']);

/**
 * True when head words run a shell with `-c` and an expansion stands where the command string
 * (or an option before it) is: `bash -c "$cmd"`. parseNested of @kit/shell-segments 0.1.0 answers
 * null (no command string) there instead of `{ ok: false, reason: 'dynamic' }`; this fills the gap
 * so the line is "cannot judge", as the contract says.
 */
export function runsDynamicShellString(head: readonly Word[]): boolean {
  const program = head[0]?.value;
  if (program === undefined || program === null) return false;
  if (!shells.has(program.slice(program.lastIndexOf('/') + 1))) return false;
  let sawC = false;
  for (const word of head.slice(1)) {
    if (word.value === null || word.dynamic)
      return (
        sawC ||
        head.slice(1).some((later) => later.value !== null && /^-[A-Za-z]*c[A-Za-z]*$/.test(later.value))
      );
    if (/^-[A-Za-z]*c[A-Za-z]*$/.test(word.value)) sawC = true;
    else if (!word.value.startsWith('-') && !word.value.startsWith('+')) return false;
  }
  return false;
}
