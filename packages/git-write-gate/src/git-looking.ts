/**
 * The gate's cheap reject, a plain text test that never loads the parser: true when the text
 * contains `git`, or `gh` followed later by `merge`, or a backslash (which can spell `g\it`).
 * Quote characters are ignored for the test (`g""it` is git-looking). Applied to the command, or
 * (strict mode, unreadable payload) to the raw stdin text, JSON
 * escapes included, which is why nearly every raw payload counts as git-looking.
 */
export function isGitLooking(text: string): boolean {
  if (text.includes('\\')) return true;
  // Quotes are dropped first: `g""it` and `'g'h pr merge` run git and gh too.
  const unquoted = text.includes('"') || text.includes("'") ? text.replace(/["']/g, '') : text;
  if (unquoted.includes('git')) return true;
  const gh = unquoted.indexOf('gh');
  return gh !== -1 && unquoted.includes('merge', gh + 2);
}
