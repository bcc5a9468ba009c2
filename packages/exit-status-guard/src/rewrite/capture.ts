import type { Statement } from '../statements.ts';

/** The source with `rc=$?` right after a statement; inside an `&&`/`||` list the statement is grouped with it. */
export function captureAfter(source: string, statement: Statement): string {
  if (statement.then === '&&' || statement.then === '||') {
    return `${source.slice(0, statement.start)}{ ${source.slice(statement.start, statement.end)}; rc=$?; }${source.slice(statement.end)}`;
  }
  return `${source.slice(0, statement.end)}; rc=$?${source.slice(statement.end).replace(/^[ \t]*;/, ';')}`;
}
