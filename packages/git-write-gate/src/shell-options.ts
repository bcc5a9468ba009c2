import type { Word } from '@kit/shell-segments';
import type { ShellOption, ShellState } from './shell-state.ts';

// The `set -o` names and `shopt` names the gate follows, by the option they set.
const setOptionNames: Readonly<Record<string, ShellOption>> = {
  physical: 'physical',
  allexport: 'allexport',
};
const shoptNames: Readonly<Record<string, ShellOption>> = {
  lastpipe: 'lastpipe',
  cdable_vars: 'cdable_vars',
};
const everyOption: readonly ShellOption[] = ['physical', 'lastpipe', 'cdable_vars', 'allexport'];

/**
 * The shell options after `set` (`-P`, `+P`, `-o physical`, clusters such as `-eP` or `-euo physical`)
 * or `shopt` (`-s`/`-u` with `lastpipe`, `cdable_vars`, and with `-o` the `set -o` names). An
 * expansion among the options makes each option it could name unknown. Options end at `--`, `-`
 * or the first operand (set's positional parameters).
 */
export function setShellOptions(name: 'set' | 'shopt', args: readonly Word[], state: ShellState): ShellState {
  const changes = name === 'set' ? readSet(args) : readShopt(args);
  if (changes.size === 0) return state;
  return { ...state, options: new Map([...state.options, ...changes]) };
}

function readSet(args: readonly Word[]): Map<ShellOption, boolean | null> {
  const changes = new Map<ShellOption, boolean | null>();
  let at = 0;
  while (at < args.length) {
    const word = args[at] as Word;
    if (word.value === null || word.dynamic) {
      changes.set('physical', null);
      changes.set('allexport', null);
      return changes;
    }
    const value = word.value;
    if (value === '--' || value === '-' || !/^[-+][A-Za-z]+$/.test(value)) break;
    const on = value.startsWith('-');
    at += 1;
    for (const letter of value.slice(1)) {
      if (letter === 'P') changes.set('physical', on);
      if (letter === 'a') changes.set('allexport', on);
      if (letter !== 'o') continue;
      const option = args[at];
      at += 1;
      if (option === undefined) continue; // `set -o` lists the options
      if (option.value === null || option.dynamic) {
        changes.set('physical', null);
        changes.set('allexport', null);
      } else if (Object.hasOwn(setOptionNames, option.value))
        changes.set(setOptionNames[option.value] as ShellOption, on);
    }
  }
  return changes;
}

function readShopt(args: readonly Word[]): Map<ShellOption, boolean | null> {
  const changes = new Map<ShellOption, boolean | null>();
  let on: boolean | null = null;
  let setNames = false;
  let at = 0;
  for (; at < args.length; at += 1) {
    const word = args[at] as Word;
    if (word.value === null || word.dynamic) {
      for (const option of everyOption) changes.set(option, null);
      return changes;
    }
    if (word.value === '--') {
      at += 1;
      break;
    }
    if (!/^-[supqo]+$/.test(word.value)) break;
    if (word.value.includes('s')) on = true;
    if (word.value.includes('u')) on = word.value.includes('s') ? null : false;
    if (word.value.includes('o')) setNames = true;
  }
  if (on === false || on === true) {
    const names = setNames ? setOptionNames : shoptNames;
    for (const word of args.slice(at)) {
      if (word.value === null || word.dynamic) for (const option of everyOption) changes.set(option, null);
      else if (Object.hasOwn(names, word.value)) changes.set(names[word.value] as ShellOption, on);
    }
  }
  return changes;
}
