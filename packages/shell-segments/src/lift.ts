import { shellQuote } from './shell-quote.ts';
import type { CommandLine } from './types.ts';

/**
 * The top command with one line's source replaced by `source`, put back into each runner on the
 * way up: shell-quoted as one word where the line was a string (bash -c, eval, env -S; eval's
 * words become that one word), spliced in as written where it was a find -exec action. For the
 * top line, `source` itself.
 */
export function liftToTop(line: CommandLine, source: string): string {
  let text = source;
  for (let at = line; at.runner !== null; at = at.runner.line) {
    const { line: outer, kind, start, end } = at.runner;
    const piece = kind === 'find-exec' ? text : shellQuote(text);
    text = outer.source.slice(0, start) + piece + outer.source.slice(end);
  }
  return text;
}
