import type { Word } from '@kit/shell-segments';

const execActions = new Set(['-exec', '-execdir', '-ok', '-okdir']);

/**
 * The commands of every `-exec`/`-execdir`/`-ok`/`-okdir` action of a `find` among `argv`, after
 * the first one. `unwrapLaunchers` of @kit/shell-segments unwraps only the first action, and
 * `find . -exec true \; -exec git push \;` runs both: this module covers the rest.
 */
export function laterFindActions(argv: readonly Word[]): Word[][] {
  const at = argv.findIndex((word) => word.value !== null && /(^|\/)find$/.test(word.value));
  if (at === -1) return [];
  const actions: Word[][] = [];
  let current: Word[] | null = null;
  for (const word of argv.slice(at + 1)) {
    if (current === null) {
      if (word.value !== null && execActions.has(word.value)) current = [];
      continue;
    }
    const ended = word.value === ';' || (word.value === '+' && current[current.length - 1]?.value === '{}');
    if (ended) {
      if (current.length > 0) actions.push(current);
      current = null;
    } else {
      current.push(word);
    }
  }
  if (current !== null && current.length > 0) actions.push(current);
  return actions.slice(1);
}
