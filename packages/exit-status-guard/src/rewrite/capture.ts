import { mainOf, type Shell } from '../shell.ts';
import { type Statement, statementsIn } from '../statements.ts';
import type { Edit } from './splice.ts';

/**
 * The edits that put `NAME=$?` right after a statement: `check; NAME=$?`, or inside an `&&`/`||`
 * list the statement grouped with it, `{ check; NAME=$?; } || echo failed`.
 */
export function captureEdits(source: string, statement: Statement, name: string): Edit[] {
  if (statement.then === '&&' || statement.then === '||') {
    return [
      { at: statement.start, remove: 0, text: '{ ' },
      { at: statement.end, remove: 0, text: `; ${name}=$?; }` },
    ];
  }
  // `check ; next` becomes `check; NAME=$?; next`: the blanks before a written `;` go.
  const blanks = /^[ \t]*(?=;)/.exec(source.slice(statement.end))?.[0].length ?? 0;
  return [{ at: statement.end, remove: blanks, text: `; ${name}=$?` }];
}

/**
 * The edit that ends the shell with `exit $NAME`: on a line of its own, or in place of an `exit …`
 * that already ends it (which would otherwise exit before the re-raise).
 */
export function reRaiseEdit(shell: Shell, name: string): Edit {
  const { source } = shell;
  const main = mainOf(shell);
  const statements = main ? statementsIn(shell, main) : [];
  const last = statements[statements.length - 1];
  const before = statements[statements.length - 2];
  if (
    last?.kind === 'segment' &&
    last.segment.argv[0]?.value === 'exit' &&
    before?.then !== '&&' &&
    before?.then !== '||'
  )
    return { at: last.start, remove: last.end - last.start, text: `exit $${name}` };
  const end = source.trimEnd().length;
  return { at: end, remove: source.length - end, text: `\nexit $${name}` };
}
