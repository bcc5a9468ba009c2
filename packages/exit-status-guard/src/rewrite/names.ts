import type { Shell } from '../shell.ts';

const declarations = new Set(['export', 'declare', 'typeset', 'local', 'readonly']);

/** Every variable name a shell's line reads or assigns (assignments, declaration operands, parameters). */
function namesIn(shell: Shell): Set<string> {
  const names = new Set<string>();
  for (const segment of shell.segments) {
    for (const param of segment.params) names.add(param);
    for (const assign of segment.assigns) names.add(assign.name);
    const [builtin, ...operands] = segment.argv;
    if (!declarations.has(builtin?.value ?? '')) continue;
    for (const word of operands) {
      const name = /^([A-Za-z_][A-Za-z0-9_]*)=?/.exec(word.text)?.[1];
      if (name) names.add(name);
    }
  }
  return names;
}

/** A variable name for a captured status that the line does not use yet: `rc`, else `check_rc`, `check_rc2`… */
export function freeName(shell: Shell): string {
  return freeNames(shell, 1)[0] as string;
}

/** `count` such names, distinct, in that order. */
export function freeNames(shell: Shell, count: number): string[] {
  const taken = namesIn(shell);
  const names: string[] = [];
  for (let n = 0; names.length < count; n += 1) {
    const name = n === 0 ? 'rc' : n === 1 ? 'check_rc' : `check_rc${n}`;
    if (!taken.has(name)) names.push(name);
  }
  return names;
}
