import { shellQuote } from './shell-quote.ts';
import type { CommandLine, TextForm } from './types.ts';

/**
 * The top command with one line's source replaced by `source`, put back into each runner on the
 * way up, in the form the text stood in: shell-quoted as one word where the line was a string
 * (bash -c, eval, env -S, a here-string, script -c; eval's words become that one word), spliced
 * in as written where it was a find -exec action, as a heredoc body (escaped unless its delimiter
 * is quoted), or as one quoted operand of the echo or printf that feeds a shell. For the top line,
 * `source` itself.
 */
export function liftToTop(line: CommandLine, source: string): string {
  let text = source;
  for (let at = line; at.runner !== null; at = at.runner.line) {
    const { line: outer, form, start, end } = at.runner;
    text = outer.source.slice(0, start) + pieceFor(form, text) + outer.source.slice(end);
  }
  return text;
}

function pieceFor(form: TextForm, text: string): string {
  const lines = text.endsWith('\n') ? text : `${text}\n`;
  const oneLine = text.endsWith('\n') ? text.slice(0, -1) : text;
  switch (form) {
    case 'word':
      return shellQuote(text);
    case 'here-string':
      return shellQuote(oneLine);
    case 'as-written':
      return text;
    case 'heredoc':
      return lines.replace(/[$`\\]/g, '\\$&');
    case 'quoted-heredoc':
      return lines;
    case 'echo-operands':
      return ` ${shellQuote(oneLine)}`;
    case 'printf-operands':
      return ` '%s\\n' ${shellQuote(oneLine)}`;
  }
}
